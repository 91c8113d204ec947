"""The pools make-scan-cards.py draws business-card fields from: names, companies, titles,
phone formats and addresses of several countries, and the rules that tie them together (the
email is built from the name and the company's domain, the phone and address from one country).

`make_fields(rng, pool, ending)` returns the card's fields under the card's field names, the
value a perfect scan gives (a website printed without a scheme is `https://…`, a phone without
its label or extension, the address lines joined with ", "), plus `_`-keys for what is printed
differently (labels, extensions, a second phone, the address's lines).

The domain's ending (what the email and website end in) is drawn from the whole Public Suffix
List that Debian ships (`publicsuffix`), not only from the few a country's cards commonly use:
see `Endings`.
"""

import unicodedata

PUBLIC_SUFFIX_LIST = "/usr/share/publicsuffix/public_suffix_list.dat"


class Endings:
    """The endings a card's domain is drawn from: the ICANN section of the Public Suffix List,
    its ASCII rules of one label (`com`, `law`, `photography`: every top-level domain) and of
    two (`co.jp`, `com.au`, `ac.kr`), without wildcards and exceptions. Three- and four-label
    rules (`kobe.hyogo.jp`) are left out: they make addresses too long to print on a card.
    Internationalised endings (`рф`, `公司.cn`) are left out too: the scanner reads Latin and
    Hangul text, and a card prints such a domain in its own script.

    `draw(rng, common)` keeps the country's common ending (`common`, drawn by the card's own
    generator) for 40 % of the cards, and otherwise draws from the whole list: a top-level
    domain (three in four) or a two-label ending, each uniformly. The same list and seed give
    the same endings; the list is Debian's snapshot (20230209 on Debian 12).
    """

    WHOLE_LIST = 0.6
    TOP_LEVEL = 0.75

    def __init__(self, path=PUBLIC_SUFFIX_LIST):
        try:
            text = open(path, encoding="utf-8").read()
        except OSError as error:
            raise SystemExit(
                f"make-scan-cards: cannot read the Public Suffix List {path} ({error.strerror}): "
                "apt-get install publicsuffix (scripts/bootstrap installs it)"
            )
        rules = []
        icann = False
        for line in text.splitlines():
            line = line.strip()
            if "===BEGIN ICANN DOMAINS===" in line:
                icann = True
            elif "===END ICANN DOMAINS===" in line:
                icann = False
            elif icann and line and not line.startswith("//"):
                rule = line.split()[0].lower()
                if rule.isascii() and rule[0] not in "*!":
                    rules.append(rule)
        self.top_level = sorted({rule for rule in rules if "." not in rule})
        self.two_labels = sorted({rule for rule in rules if rule.count(".") == 1})
        if len(self.top_level) < 1000:
            raise SystemExit(f"make-scan-cards: {path} holds only {len(self.top_level)} top-level domains")

    def draw(self, rng, common):
        """The ending of one card's domain, with its dot (`.law`, `.co.jp`)."""
        if rng.random() >= self.WHOLE_LIST:
            return common
        pool = self.top_level if rng.random() < self.TOP_LEVEL else self.two_labels
        return "." + rng.choice(pool)

    MAIL_HOSTS = ["mail", "corp", "eu", "staff", "mx"]
    MAIL_HOST = 0.1

    def mail_host(self, rng):
        """A host name before the domain in the email (`name@mail.firm.co.jp`) for one card in
        ten, else ""."""
        return rng.choice(self.MAIL_HOSTS) + "." if rng.random() < self.MAIL_HOST else ""

# --- Latin cards -----------------------------------------------------------------------------

FIRST = [
    "Ada", "Grace", "Alan", "Margaret", "Linus", "Barbara", "Dennis", "Frances", "Ken", "Radia",
    "Tim", "Hedy", "Edsger", "Donald", "Katherine", "John", "Sophie", "Oliver", "Emma", "Lucas",
    "Olivia", "Henrik", "Ingrid", "Matteo", "Chiara", "Pierre", "Camille", "Javier", "Lucía",
    "Rahul", "Priya", "Kenji", "Amelia", "Noah", "Clara", "Felix", "Hannah", "Samuel", "Nora",
]
LAST = [
    "Lovelace", "Hopper", "Turing", "Hamilton", "Torvalds", "Liskov", "Ritchie", "Allen",
    "Thompson", "Perlman", "Lamarr", "Dijkstra", "Knuth", "Johnson", "McCarthy", "Wilson",
    "Andersson", "Rossi", "Dubois", "García", "Nakamura", "Sharma", "Schmidt", "Lindqvist",
    "Bennett", "Fischer", "Moreau", "Novak", "Castillo", "Whitfield", "Okafor", "Brennan",
]
COMPANY_WORDS = [
    ("Analytical", "Engines"), ("Northwind", "Traders"), ("Blue Harbor", "Logistics"),
    ("Acme", "Robotics"), ("Nordic", "Timber"), ("Helix", "Biolabs"), ("Quantum", "Orchard"),
    ("Brightline", "Media"), ("Silverline", "Systems"), ("Red Maple", "Analytics"),
    ("Ironwood", "Software"), ("Clearwater", "Energy"), ("Summit", "Dynamics"),
    ("Lighthouse", "Labs"), ("Granite", "Capital"), ("Evergreen", "Health"), ("Polar", "Networks"),
    ("Copperfield", "Design"), ("Starling", "Instruments"), ("Meridian", "Foods"),
]
TITLES = [
    "Director of Engineering", "Product Manager", "Senior Software Engineer",
    "Chief Executive Officer", "Head of Sales", "Marketing Manager", "Data Scientist",
    "UX Designer", "Account Executive", "Founder & CEO", "VP of Operations", "Lead Programmer",
    "Sales Director", "Research Engineer", "Chief Technology Officer", "Project Manager",
    "Software Architect", "Business Development Manager", "Senior Consultant", "Office Manager",
]
DEPARTMENTS = [
    "Engineering", "Sales & Marketing", "Research and Development", "Customer Success",
    "Platform Team", "Finance Department", "Product Division", "Operations",
]
# Country: phone formats (# is a digit), domain endings, legal suffixes, address makers.
COUNTRIES = {
    "us": {
        "phones": ["+1 (N##) 555-01##", "(N##) 555-01##", "+1 N##-555-01##", "N##.555.01##", "+1 N## 555 01##"],
        "tlds": [".com", ".io", ".com"],
        "suffixes": ["Inc.", "LLC", "Corp.", "Inc"],
    },
    "uk": {
        "phones": ["+44 20 7946 0###", "+44 (0)20 7946 0###", "020 7946 0###", "+44 161 496 0###"],
        "tlds": [".co.uk", ".com"],
        "suffixes": ["Ltd", "Ltd.", "Limited", "PLC"],
    },
    "de": {
        "phones": ["+49 30 ######-##", "+49 (0)89 #### ####", "+49 40 ### ###-##"],
        "tlds": [".de", ".com"],
        "suffixes": ["GmbH", "AG", "GmbH & Co. KG"],
    },
    "se": {"phones": ["+46 8 ### ### ##", "+46 31 ### ## ##"], "tlds": [".se", ".com"], "suffixes": ["AB"]},
    "fr": {"phones": ["+33 1 ## ## ## ##", "+33 (0)4 ## ## ## ##"], "tlds": [".fr"], "suffixes": ["S.A.", "SAS", "SARL"]},
    "es": {"phones": ["+34 91 ### ## ##", "+34 93 ### ## ##"], "tlds": [".es", ".com"], "suffixes": ["S.A.", "S.L."]},
}
US_CITIES = [("San Francisco", "CA", "941"), ("New York", "NY", "100"), ("Austin", "TX", "787"),
             ("Seattle", "WA", "981"), ("Boston", "MA", "021"), ("Chicago", "IL", "606")]
STREETS = ["Market", "Mission", "Harbor", "Elm", "Maple", "Oak", "Cedar", "Lake", "Hill", "King"]
DE_STREETS = ["Friedrich", "Haupt", "Bahnhof", "Linden", "Garten", "Schiller"]
DE_CITIES = [("10117", "Berlin"), ("80331", "München"), ("20095", "Hamburg"), ("50667", "Köln")]


def digits(rng, pattern):
    """The pattern with every # replaced by a random digit, every N by one of 2–9."""
    return "".join(str(rng.randint(0, 9)) if c == "#" else str(rng.randint(2, 9)) if c == "N" else c for c in pattern)


def latin_address(rng, country):
    n = rng.randint(1, 999)
    if country == "us":
        city, state, zip3 = rng.choice(US_CITIES)
        street = f"{n} {rng.choice(STREETS)} {rng.choice(['Street', 'Avenue', 'Blvd', 'Road'])}"
        if rng.random() < 0.5:
            street += f", Suite {rng.randint(100, 2400)}"
        return [street, f"{city}, {state} {zip3}{rng.randint(10, 99)}"]
    if country == "uk":
        code = rng.choice(["EC1A 1BB", "W1A 0AX", "SW1A 2AA", "M1 1AE", "N1 9GU"])
        town = "Manchester" if code.startswith("M1") else "London"
        return [f"{n} {rng.choice(STREETS)} Street", f"{town} {code}"]
    if country == "de":
        plz, city = rng.choice(DE_CITIES)
        return [f"{rng.choice(DE_STREETS)}straße {n}", f"{plz} {city}"]
    if country == "se":
        return [f"{rng.choice(['Drottning', 'Kungs', 'Sveavägen', 'Vasa'])}gatan {rng.randint(1, 99)}",
                f"{rng.randint(111, 118)} {rng.randint(10, 99)} Stockholm"]
    if country == "fr":
        return [f"{n} rue de {rng.choice(['Rivoli', 'la Paix', 'Lyon', 'Provence'])}", f"750{rng.randint(10, 20)} Paris"]
    return [f"Calle de {rng.choice(['Alcalá', 'Serrano', 'Atocha', 'Velázquez'])} {rng.randint(1, 200)}",
            f"280{rng.randint(10, 99)} Madrid"]


def ascii_fold(text):
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()


def latin_fields(rng, ending):
    country = rng.choice(list(COUNTRIES))
    info = COUNTRIES[country]
    first, last = rng.choice(FIRST), rng.choice(LAST)
    first_a, last_a = ascii_fold(first).lower(), ascii_fold(last).lower()
    base, kind = rng.choice(COMPANY_WORDS)
    company = f"{base} {kind} {rng.choice(info['suffixes'])}" if rng.random() < 0.8 else f"{base} {kind}"
    slug = rng.choice([base.lower().replace(" ", ""), (base + kind).lower().replace(" ", ""),
                       (base + "-" + kind).lower().replace(" ", "")])
    domain = slug + ending.draw(rng.choice(info["tlds"]))
    local = rng.choice([f"{first_a}.{last_a}", first_a, f"{first_a[0]}{last_a}", f"{first_a[0]}.{last_a}"])
    fields = {
        "name": f"{first} {last}",
        "title": rng.choice(TITLES),
        "company": company,
        "department": rng.choice(DEPARTMENTS),
        "email": f"{local}@{ending.mail_host()}{domain}",
    }
    main = digits(rng, rng.choice(info["phones"]))
    mobile = digits(rng, rng.choice(info["phones"]))
    labels = (["T ", "Tel ", "Tel. ", "T: ", "Phone ", "P ", ""], ["M ", "Mobile ", "M: "], ["F ", "Fax "])
    return country, fields, main, mobile, labels, domain, latin_address(rng, country)


LATIN = latin_fields

# --- Korean cards ----------------------------------------------------------------------------

KOREAN_NAMES = [
    ("김민준", "minjun.kim"), ("이서연", "seoyeon.lee"), ("박지훈", "jihoon.park"), ("최수아", "sua.choi"),
    ("정예준", "yejun.jung"), ("강하은", "haeun.kang"), ("조도윤", "doyun.cho"), ("윤지우", "jiwoo.yoon"),
    ("장서준", "seojun.jang"), ("임하린", "harin.lim"), ("한지민", "jimin.han"), ("오승현", "seunghyun.oh"),
]
KOREAN_COMPANIES = [
    ("서울데이터랩", "seouldatalab"), ("한빛소프트", "hanbitsoft"), ("푸른숲", "pureunsoop"),
    ("부산해양물류", "busanlogis"), ("새벽전자", "saebyeok"), ("다온디자인", "daondesign"),
    ("미래에너지", "miraeenergy"), ("누리네트웍스", "nurinet"),
]
KOREAN_TITLES = ["대표이사", "팀장", "부장", "과장", "대리", "선임연구원", "수석 엔지니어", "이사", "실장", "책임연구원"]
KOREAN_DEPARTMENTS = ["개발팀", "영업본부", "기술연구소", "디자인팀", "경영지원팀", "마케팅팀"]
KOREAN_ADDRESSES = [
    ["서울특별시 강남구 테헤란로 {n}"], ["서울특별시 마포구 월드컵북로 {n}"],
    ["부산광역시 해운대구 센텀중앙로 {n}"], ["경기도 성남시 분당구 판교역로 {n}"],
    ["서울특별시 중구 세종대로 {n}", "{f}층"], ["대전광역시 유성구 대학로 {n}"],
]
KOREAN_PHONES = ["+82 2-###-####", "02-###-####", "031-###-####", "+82 2 #### ####"]
KOREAN_MOBILES = ["010-####-####", "+82 10-####-####"]


def korean_fields(rng, ending):
    name, local = rng.choice(KOREAN_NAMES)
    company, slug = rng.choice(KOREAN_COMPANIES)
    form = rng.random()
    company_text = f"주식회사 {company}" if form < 0.4 else (f"㈜{company}" if form < 0.7 else company)
    domain = slug + ending.draw(rng.choice([".co.kr", ".com", ".kr"]))
    if rng.random() < 0.3:
        local = local.split(".")[0]
    fields = {
        "name": name,
        "title": rng.choice(KOREAN_TITLES),
        "company": company_text,
        "department": rng.choice(KOREAN_DEPARTMENTS),
        "email": f"{local}@{ending.mail_host()}{domain}",
    }
    n, floor = rng.randint(1, 400), rng.randint(2, 25)
    address = [line.format(n=n, f=floor) for line in rng.choice(KOREAN_ADDRESSES)]
    main = digits(rng, rng.choice(KOREAN_PHONES))
    mobile = digits(rng, rng.choice(KOREAN_MOBILES))
    labels = (["T ", "Tel ", "전화 ", "T. ", ""], ["M ", "HP ", "휴대폰 ", "M. "], ["F ", "팩스 "])
    return "kr", fields, main, mobile, labels, domain, address


KOREAN = korean_fields

# --- Both ------------------------------------------------------------------------------------


class CardEnding:
    """One card's draws of `Endings`, from a random source of its own (`rng`), so that the
    card's other draws are the same whatever its domain ends in."""

    def __init__(self, endings, rng):
        self.endings, self.rng = endings, rng
        self.drawn = None

    def draw(self, common):
        self.drawn = self.endings.draw(self.rng, common)
        return self.drawn

    def mail_host(self):
        return self.endings.mail_host(self.rng)


def make_fields(rng, pool, ending):
    """One card's fields (see the module's text); `ending` is its `CardEnding`."""
    country, fields, main, mobile, (office_labels, mobile_labels, fax_labels), domain, address = pool(rng, ending)
    for key, chance in (("title", 0.9), ("department", 0.3), ("email", 0.95)):
        if rng.random() > chance:
            del fields[key]
    if rng.random() > 0.92:
        del fields["company"]
    # The phones: the office number is the card's phone; a mobile-only card's mobile is.
    office_label = rng.choice(office_labels)
    if country != "kr" and rng.random() < 0.1:
        office_label = "☎ "
    extension = ""
    if rng.random() < 0.15:
        number = str(rng.randint(10, 4999))
        extension = rng.choice([f" ext. {number}", f" x{number}", f" Ext {number}"] if country != "kr" else [f" (내선 {number})"])
    kind = rng.random()
    printed = []
    if kind < 0.9:
        printed.append((office_label, main + extension))
        fields["phone"] = main
        if kind < 0.2:
            printed.append((rng.choice(mobile_labels), mobile))
        elif kind < 0.3:
            fax = main[:-2] + f"{rng.randint(10, 99)}"
            printed.append((rng.choice(fax_labels), fax))
    else:
        printed.append((rng.choice(mobile_labels), mobile))
        fields["phone"] = mobile
    fields["_extras"] = printed
    if rng.random() < 0.75:
        printed_site = rng.choice([f"www.{domain}", f"www.{domain}", domain, f"https://www.{domain}", f"https://{domain}"])
        fields["website"] = printed_site if printed_site.startswith("https://") else "https://" + printed_site
        fields["_website_printed"] = printed_site
    if rng.random() < 0.65:
        fields["address"] = ", ".join(address)
        fields["_address_lines"] = address
    return fields
