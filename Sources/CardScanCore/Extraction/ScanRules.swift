/// Every word list the field extraction uses, in one place. The extraction's code only asks
/// these tables; adding a legal form, a role word, a label or a country's address words is an
/// edit here (and a row in `ExtractionRuleTests`).
///
/// Words are compared case-insensitively, after the text was cleaned (``LineText``), and
/// without trailing `.`/`:`, so `Inc`, `Inc.` and `INC` are one entry.
public enum ScanRules {
    // MARK: Labels

    /// What a contact line may start with, and what it announces.
    public enum LabelKind: Sendable, Equatable {
        /// An office phone (or a phone without more said).
        case phone
        /// A mobile phone.
        case mobile
        /// A fax number: never the card's phone.
        case fax
        /// An email address.
        case email
        /// A website.
        case website
        /// A postal address.
        case address
    }

    /// Labels, lower-cased and without their `:`/`.`: the whole first word of a line.
    public static let labels: [String: LabelKind] = [
        "t": .phone, "tel": .phone, "phone": .phone, "p": .phone, "ph": .phone, "o": .phone, "office": .phone,
        "d": .phone, "direct": .phone, "☎": .phone, "☏": .phone, "📞": .phone, "전화": .phone, "대표전화": .phone,
        "직통": .phone, "telefon": .phone, "tél": .phone, "teléfono": .phone,
        "m": .mobile, "mob": .mobile, "mobile": .mobile, "cell": .mobile, "c": .mobile, "hp": .mobile,
        "h.p": .mobile, "휴대폰": .mobile, "핸드폰": .mobile, "휴대전화": .mobile, "모바일": .mobile, "handy": .mobile,
        "f": .fax, "fax": .fax, "팩스": .fax, "telefax": .fax,
        "e": .email, "email": .email, "e-mail": .email, "mail": .email, "✉": .email, "이메일": .email, "메일": .email,
        "w": .website, "web": .website, "website": .website, "url": .website, "홈페이지": .website, "site": .website,
        "a": .address, "addr": .address, "address": .address, "주소": .address, "adresse": .address,
    ]

    /// Words that announce a phone extension after the number.
    public static let extensionWords: Set<String> = ["ext", "extn", "extension", "x", "내선", "durchwahl", "poste"]

    // MARK: Companies

    /// Legal forms that end a company's name (matched on the line's last word, so
    /// `Co., Ltd.` and `GmbH & Co. KG` count by their last word).
    public static let legalSuffixes: Set<String> = [
        "inc", "incorporated", "ltd", "limited", "llc", "l.l.c", "llp", "plc", "corp", "corporation", "co",
        "company", "gmbh", "mbh", "e.v", "s.a", "s.l", "sarl", "s.r.l", "srl", "s.p.a", "b.v", "n.v", "oy",
        "oyj", "a/s", "aps", "pty", "pte", "k.k", "sdn", "bhd", "s.a.s", "sàrl", "s.à.r.l", "holdings",
    ]

    /// Legal forms that are also short words (`AS`, `SA`, `AB`): they count only in capitals.
    public static let capitalLegalSuffixes: Set<String> = [
        "AB", "AG", "KG", "UG", "SA", "SL", "SAS", "SPA", "BV", "NV", "AS", "ASA", "LP", "KK", "GK", "LTD", "INC",
    ]

    /// How Tesseract reads the ㈜ mark at the start of a Korean company's name: taken as ㈜.
    public static let stockCompanyMarkReadings: Set<String> = [
        "㈜", "㈜.", "(주)", "(주", "주)", "주", "쑤", "뚜", "뛰", "쭈", "쥬", "(쭈)", "(쑤)",
    ]

    /// Counters written after a number in Korean addresses (`11층`, `3번지`).
    public static let hangulUnits: Set<String> = ["층", "호", "번지", "동", "가", "길", "로", "번길"]

    /// Country calling codes of one and two digits; a `+` followed by more digits than a code
    /// has (OCR lost the space: `+822-555`) is split after the code (`+82 2-555`).
    public static let shortCountryCodes: Set<String> = [
        "1", "7", "20", "27", "30", "31", "32", "33", "34", "36", "39", "40", "41", "43", "44", "45", "46", "47",
        "48", "49", "51", "52", "53", "54", "55", "56", "57", "58", "60", "61", "62", "63", "64", "65", "66",
        "81", "82", "84", "86", "90", "91", "92", "93", "94", "95", "98",
    ]

    /// Countries whose area codes of one digit are printed apart (`+33 1 23 45 67 89`,
    /// `+82 2 1234 5678`, `+46 8 123 456 78`): the digits an area code of one digit may be, and
    /// how many digits the national number then has. OCR often loses the narrow space after
    /// such a digit (`+33 123 45 67 89`); it is put back when the count fits.
    public static let singleDigitAreaCodes: [String: (digits: Set<Character>, nationalLengths: ClosedRange<Int>)] = [
        "33": (["1", "2", "3", "4", "5", "6", "7", "9"], 9...9),
        "82": (["2"], 9...10),
        "46": (["8"], 7...9),
        "32": (["2", "3", "9"], 8...8),
        "31": (["6"], 9...9),
    ]

    /// Korean (and Japanese) company forms, matched anywhere in the line without spaces.
    public static let hangulCompanyMarks: [String] = [
        "주식회사", "㈜", "(주)", "유한회사", "(유)", "㈲", "합자회사", "사단법인", "재단법인", "株式会社", "有限会社",
    ]

    /// Free email providers: their domain says nothing about the company.
    public static let freeMailDomains: Set<String> = [
        "gmail", "googlemail", "outlook", "hotmail", "live", "msn", "yahoo", "icloud", "me", "aol", "proton",
        "protonmail", "gmx", "web", "naver", "daum", "hanmail", "kakao", "nate", "qq", "163", "mail", "yandex",
    ]

    // MARK: Titles and departments

    /// Role words: a line holding one is a job title.
    public static let roleWords: Set<String> = [
        "director", "manager", "engineer", "developer", "designer", "officer", "chief", "ceo", "cto", "cfo",
        "coo", "cmo", "cio", "cpo", "vp", "svp", "evp", "president", "founder", "co-founder", "cofounder",
        "head", "lead", "principal", "partner", "consultant", "analyst", "architect", "scientist",
        "researcher", "specialist", "executive", "associate", "coordinator", "administrator", "assistant",
        "representative", "owner", "programmer", "professor", "attorney", "lawyer", "accountant", "advisor",
        "adviser", "agent", "editor", "producer", "intern", "technician", "supervisor", "secretary",
        "treasurer", "chairman", "chairwoman", "chair", "strategist", "planner", "buyer", "recruiter",
        "geschäftsführer", "leiter", "leiterin", "directeur", "directrice", "gerente", "ingeniero",
    ]

    /// Korean job titles (matched as whole words, or as the end of a word: `수석연구원`).
    public static let hangulRoleWords: [String] = [
        "대표이사", "대표", "사장", "부사장", "회장", "부회장", "이사", "상무", "전무", "본부장", "실장", "팀장",
        "부장", "차장", "과장", "대리", "주임", "사원", "매니저", "연구원", "선임", "책임", "수석", "엔지니어",
        "디자이너", "개발자", "교수", "원장", "소장", "센터장", "파트장", "그룹장", "고문", "변호사", "회계사",
        "컨설턴트", "프로", "CEO", "CTO",
    ]

    /// Words that make a line a department (when it has no role word).
    public static let departmentWords: Set<String> = [
        "department", "dept", "division", "team", "group", "unit", "office", "lab", "labs", "bureau",
        "abteilung", "département", "departamento",
    ]

    /// Whole lines that are departments: business functions named alone.
    public static let departmentNames: Set<String> = [
        "engineering", "sales", "marketing", "sales & marketing", "sales and marketing", "finance", "operations",
        "research and development", "research & development", "r&d", "customer success", "customer service",
        "human resources", "hr", "legal", "it", "product", "design", "support", "procurement", "logistics",
        "communications", "public relations", "business development", "accounting",
    ]

    /// How Korean department names end (`개발팀`, `영업본부`, `기술연구소`). Not the one-syllable
    /// `실`, `부`, `과`, which end as many names (`김영실`) as departments.
    public static let hangulDepartmentEndings: [String] = [
        "팀", "본부", "사업부", "영업부", "연구소", "연구실", "센터", "그룹", "파트", "사업단", "지원단", "지원실",
        "기획실", "전략실", "비서실",
    ]

    // MARK: Addresses

    /// Words of street addresses (lower-cased, without `.`): a line with one of these and a
    /// number is an address line.
    public static let streetWords: Set<String> = [
        "street", "st", "avenue", "ave", "road", "rd", "boulevard", "blvd", "lane", "ln", "drive", "dr",
        "way", "court", "ct", "place", "pl", "square", "sq", "parkway", "pkwy", "highway", "hwy", "suite",
        "ste", "floor", "fl", "building", "bldg", "unit", "room", "po", "box", "p.o", "strasse", "straße",
        "str", "platz", "weg", "allee", "gasse", "ring", "damm", "ufer", "gatan", "vägen", "gata", "rue",
        "avenida", "calle", "plaza", "paseo", "via", "viale", "piazza", "corso", "laan", "straat", "gracht",
        "level", "tower", "house", "park", "center", "centre", "industrial", "estate",
    ]

    /// Word endings of German, Swedish, Dutch street names (`Friedrichstraße`, `Drottninggatan`).
    /// OCR's readings of `ß` (`straBe`, `strafe`) are recognised by `LineKinds.misreadStrasse`.
    public static let streetEndings: [String] = [
        "straße", "strasse", "str.", "gatan", "vägen", "gata", "weg", "platz", "allee", "straat", "gracht",
    ]

    /// US states and Canadian provinces, as written before a ZIP code (`Seattle, WA 98167`).
    public static let regionCodes: Set<String> = [
        "al", "ak", "az", "ar", "ca", "co", "ct", "de", "dc", "fl", "ga", "hi", "id", "il", "in", "ia", "ks",
        "ky", "la", "me", "md", "ma", "mi", "mn", "ms", "mo", "mt", "ne", "nv", "nh", "nj", "nm", "ny", "nc",
        "nd", "oh", "ok", "or", "pa", "ri", "sc", "sd", "tn", "tx", "ut", "vt", "va", "wa", "wv", "wi", "wy",
        "on", "qc", "bc", "ab", "mb", "ns", "nb", "nl", "pe", "sk",
    ]

    /// Cities and countries that end an address line without a street word.
    public static let places: Set<String> = [
        "london", "manchester", "berlin", "münchen", "munich", "hamburg", "köln", "cologne", "frankfurt",
        "stockholm", "göteborg", "paris", "lyon", "madrid", "barcelona", "rome", "roma", "milan", "milano",
        "munchen", "koln", "amsterdam", "vienna", "wien", "zürich", "zurich", "geneva", "oslo", "copenhagen",
        "helsinki",
        "dublin", "brussels", "lisbon", "tokyo", "osaka", "seoul", "busan", "singapore", "sydney",
        "melbourne", "toronto", "vancouver", "new york", "usa", "u.s.a", "uk", "germany", "deutschland",
        "sweden", "sverige", "france", "spain", "españa", "italy", "japan", "korea", "south korea",
    ]

    /// Korean provinces and metropolitan cities: an address starts with one.
    public static let hangulRegions: [String] = [
        "서울특별시", "부산광역시", "대구광역시", "인천광역시", "광주광역시", "대전광역시", "울산광역시",
        "세종특별자치시", "경기도", "강원도", "강원특별자치도", "충청북도", "충청남도", "전라북도", "전북특별자치도",
        "전라남도", "경상북도", "경상남도", "제주특별자치도", "서울시", "부산시", "대구시", "인천시", "광주시",
        "대전시", "울산시", "제주도",
    ]

    /// Their short names: an address's first word only when more words follow (`서울 강남구
    /// …`), as companies are named after cities too (`부산해양물류`).
    public static let hangulRegionShortNames: Set<String> = [
        "서울", "부산", "대구", "인천", "광주", "대전", "울산", "세종", "경기", "강원", "충북", "충남", "전북", "전남",
        "경북", "경남", "제주",
    ]

    /// How words of Korean addresses end (`강남구`, `테헤란로`, `12층`).
    public static let hangulAddressEndings: [String] = [
        "시", "도", "구", "군", "읍", "면", "동", "리", "로", "길", "층", "호", "번지", "빌딩", "타워", "센터",
    ]

    // MARK: Web

    /// The top-level domains of the built-in list, used only when the Public Suffix List cannot
    /// be read (``DomainEndings/builtIn(reason:)``): the common generic ones; any two letters
    /// count as a country's as well. With the list, every one of its ~1,400 counts.
    public static let fallbackTopLevelDomains: Set<String> = [
        "com", "net", "org", "info", "biz", "edu", "gov", "mil", "int", "io", "co", "ai", "dev", "app", "tech",
        "design", "studio", "agency", "consulting", "cloud", "shop", "store", "online", "site", "me", "tv", "xyz",
        "law", "legal", "health", "bank", "email", "group", "company", "solutions", "services", "photography",
        "media", "digital", "network", "systems", "software", "capital", "finance", "energy", "global", "world",
        "art", "blog", "news", "live", "life", "team", "berlin", "london", "paris", "tokyo", "nyc", "asia", "eu",
    ]

    /// Names under a country code that the built-in list takes as endings (`co.kr`, `co.uk`,
    /// `or.jp`), so that `acme.co kr` is read as `acme.co.kr`. The Public Suffix List names
    /// them country by country.
    public static let fallbackSecondLevelDomains: Set<String> = [
        "co", "or", "ac", "go", "ne", "re", "com", "org", "net", "gov", "edu",
    ]

    /// Characters OCR reads for letters of an email's local part (`¢.mccarthy@`), put right
    /// before the address is checked: none of them may stand in one.
    public static let localPartMisreadings: [Character: Character] = ["¢": "c", "©": "c", "€": "e"]

    /// How OCR misreads letters of a domain's ending, as (read, meant): `acme.corn` is
    /// `acme.com`. A doubtful reading whose ending is unknown is tried with one of these put
    /// right; a reading whose ending it makes known is taken (``HostReading``).
    public static let endingMisreadings: [(read: String, meant: String)] = [
        ("rn", "m"), ("m", "rn"), ("cl", "d"), ("vv", "w"), ("0", "o"), ("1", "l"), ("1", "i"), ("l", "i"),
        ("i", "l"), ("5", "s"), ("c", "e"), ("e", "c"), ("ii", "u"), ("u", "ii"), ("n", "m"), ("m", "n"),
    ]
}
