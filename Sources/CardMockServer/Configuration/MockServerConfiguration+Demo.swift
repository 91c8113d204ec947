import CardModels
import Foundation

// The compiled-in copy of `Config/mock-server.json` (users) and `Config/demo-cards.json`, so the
// server runs outside the repository. `ConfigurationFilesTests` fails when they drift apart.

extension MockServerConfiguration {
    /// The seed users of `Config/mock-server.json`: `demo@cardwallet.dev` / `demo1234` (owner of the
    /// demo cards) and `minji@cardwallet.dev` / `minji1234` (a few cards of her own).
    public static let demoUsers: [SeedUser] = [
        SeedUser(id: "user-demo", email: "demo@cardwallet.dev", name: "Demo User", password: "demo1234"),
        SeedUser(id: "user-minji", email: "minji@cardwallet.dev", name: "김민지 (Minji Kim)", password: "minji1234"),
    ]

    /// The cards of `Config/demo-cards.json`: a dozen varied cards for the demo user (Korean, Japanese,
    /// Chinese, Cyrillic, Arabic, Greek and accented names, very long fields, a PNG and a JPEG image)
    /// and three for Minji.
    public static let demoCards: [SeedCard] = [
        SeedCard(
            id: "demo-01", owner: "demo@cardwallet.dev",
            fields: CardFields(
                name: "Ada Lovelace",
                title: "Lead Programmer",
                company: "Analytical Engines Ltd",
                department: "Research",
                email: "ada@analytical.example",
                phone: "+44 20 7946 0001",
                website: "https://analytical.example/ada",
                address: "12 St James's Square, London SW1Y 4JH",
                bio:
                    "Writes programs for machines that do not exist yet. Happy to talk about Bernoulli numbers over tea.",
                birthday: "1815-12-10",
                funFacts: ["Wrote the first published algorithm", "Daughter of Lord Byron"],
                tags: ["history", "math"],
                defaultImage: 1
            ),
            image: DemoImages.demoPNG
        ),
        SeedCard(
            id: "demo-02", owner: "demo@cardwallet.dev",
            fields: CardFields(
                name: "김민준",
                title: "백엔드 개발자",
                company: "서울데이터랩",
                department: "플랫폼팀",
                email: "minjun.kim@seoul-data.example",
                phone: "+82 10-1234-5678",
                website: "https://seoul-data.example",
                address: "서울특별시 강남구 테헤란로 152, 12층",
                bio: "서버와 데이터 파이프라인을 만듭니다. Swift와 Go를 좋아해요.",
                birthday: "1992-04-17",
                funFacts: ["매운 음식을 좋아함", "주말마다 북한산 등산", "고양이 두 마리와 삶"],
                tags: ["backend", "swift", "seoul"],
                defaultImage: 2
            )
        ),
        SeedCard(
            id: "demo-03", owner: "demo@cardwallet.dev",
            fields: CardFields(
                name: "佐藤 花子",
                title: "UIデザイナー",
                company: "株式会社さくらテック",
                email: "hanako.sato@sakura-tech.example",
                phone: "+81 3-1234-5678",
                address: "東京都渋谷区神南1-2-3",
                funFacts: ["猫が好き"],
                tags: ["design", "tokyo"],
                defaultImage: 3
            )
        ),
        SeedCard(
            id: "demo-04", owner: "demo@cardwallet.dev",
            fields: CardFields(
                name: "Олег Петров",
                title: "Инженер-конструктор",
                company: "ООО «Северный Ветер»",
                email: "oleg.petrov@severny.example",
                phone: "+7 812 123-45-67",
                address: "Санкт-Петербург, Невский проспект, 28",
                tags: ["engineering"],
                defaultImage: 4
            )
        ),
        SeedCard(
            id: "demo-05", owner: "demo@cardwallet.dev",
            fields: CardFields(
                name: "محمد الأحمد",
                title: "Sales Director",
                company: "Desert Bloom Trading",
                department: "المبيعات",
                email: "m.alahmad@desertbloom.example",
                phone: "+971 4 123 4567",
                website: "https://desertbloom.example",
                address: "دبي، شارع الشيخ زايد",
                defaultImage: 5
            )
        ),
        SeedCard(
            id: "demo-06", owner: "demo@cardwallet.dev",
            fields: CardFields(
                name: "Zoë Ångström-Núñez",
                title: "Chief Happiness Officer",
                company: "Fjord & Co.",
                email: "zoe@fjord.example",
                website: "http://fjord.example",
                birthday: "1988-02-29",
                funFacts: ["Has swum in all five Great Lakes", "Owns 41 houseplants", "Speaks Esperanto"],
                tags: ["people", "culture"],
                defaultImage: 6
            ),
            image: DemoImages.demoJPEG
        ),
        SeedCard(
            id: "demo-07", owner: "demo@cardwallet.dev",
            fields: CardFields(
                name: "Maximilian Alexander Konstantin von Hohenberg-Wittelsbach",
                title: "Senior Principal Distinguished Staff Architect for Cross-Functional Platform Enablement",
                company: "Hohenberg-Wittelsbach Internationale Beteiligungs- und Verwaltungsgesellschaft mbH",
                department: "Office of the Chief Technology Officer, Strategic Initiatives and Long-Range Planning",
                email: "maximilian.alexander.von.hohenberg-wittelsbach@hohenberg-wittelsbach-beteiligungen.example",
                phone: "+49 (0) 89 1234 5678 90",
                website:
                    "https://www.hohenberg-wittelsbach-beteiligungen.example/de/unternehmen/geschaeftsfuehrung/technologie/maximilian-alexander-konstantin",
                address:
                    "Maximilianstraße 123, Hinterhaus, 3. Obergeschoss links, c/o Internationale Beteiligungs- und Verwaltungsgesellschaft, 80539 München, Bayern, Deutschland",
                bio:
                    "Twenty-five years of building platforms that outlive their roadmaps. I care about boring technology, readable code, honest estimates and teams that go home on time. Previously led the migration of a forty-year-old mainframe billing system to a set of services nobody has to be afraid of. Outside work: restoring a 1974 sailing boat, baking sourdough with questionable success, and collecting fountain pens. Ask me about the time we rewrote the scheduler in a weekend, but only if you have an hour.",
                birthday: "1970-01-01",
                funFacts: [
                    "Has a name that does not fit on most forms", "Restores old sailing boats",
                    "Bakes sourdough every Sunday",
                ],
                tags: [
                    "architecture", "platform", "mainframe", "leadership", "sailing", "sourdough", "pens", "munich",
                    "long-names", "edge-case",
                ],
                defaultImage: 7
            )
        ),
        SeedCard(
            id: "demo-08", owner: "demo@cardwallet.dev",
            fields: CardFields(
                name: "王小明",
                title: "产品经理",
                company: "上海云端科技有限公司",
                email: "xiaoming.wang@yunduan.example",
                phone: "+86 21 5555 0123",
                address: "上海市浦东新区世纪大道100号",
                funFacts: ["喜欢喝茶"],
                tags: ["product"],
                defaultImage: 0
            )
        ),
        SeedCard(
            id: "demo-09", owner: "demo@cardwallet.dev",
            fields: CardFields(
                name: "Priya Raghunathan (प्रिया)",
                title: "Data Scientist",
                company: "Monsoon Analytics",
                email: "priya@monsoon.example",
                phone: "+91 80 4000 1234",
                website: "https://monsoon.example/team/priya",
                bio: "Turns messy spreadsheets into forecasts people actually read.",
                tags: ["data", "ml"],
                defaultImage: 1
            )
        ),
        SeedCard(
            id: "demo-10", owner: "demo@cardwallet.dev",
            fields: CardFields(
                name: "Sam",
                defaultImage: 2
            )
        ),
        SeedCard(
            id: "demo-11", owner: "demo@cardwallet.dev",
            fields: CardFields(
                name: "Γιώργος Παπαδόπουλος",
                title: "Αρχιτέκτονας",
                company: "Ακρόπολη Μελέτες Α.Ε.",
                email: "giorgos@akropoli.example",
                phone: "+30 210 123 4567",
                address: "Οδός Ερμού 15, Αθήνα",
                defaultImage: 3
            )
        ),
        SeedCard(
            id: "demo-12", owner: "demo@cardwallet.dev",
            fields: CardFields(
                name: "Chris Nguyễn 🚀",
                title: "Developer Advocate",
                company: "Rocket Science Inc.",
                email: "chris@rocket.example",
                website: "https://rocket.example/chris",
                funFacts: ["Has launched 12 model rockets"],
                tags: ["devrel", "rockets"],
                defaultImage: 4
            )
        ),
        SeedCard(
            id: "minji-01", owner: "minji@cardwallet.dev",
            fields: CardFields(
                name: "이서연",
                title: "UX 리서처",
                company: "판교랩스",
                email: "seoyeon.lee@pangyo-labs.example",
                phone: "010-9876-5432",
                tags: ["ux", "research"],
                defaultImage: 5
            )
        ),
        SeedCard(
            id: "minji-02", owner: "minji@cardwallet.dev",
            fields: CardFields(
                name: "Jordan Smith",
                title: "Freelance Photographer",
                email: "jordan@jsmith-photo.example",
                website: "https://jsmith-photo.example",
                funFacts: ["Shoots only on film"],
                tags: ["photo"],
                defaultImage: 6
            )
        ),
        SeedCard(
            id: "minji-03", owner: "minji@cardwallet.dev",
            fields: CardFields(
                name: "박지훈",
                title: "마케팅 팀장",
                company: "한강커머스",
                department: "브랜드마케팅",
                email: "jihoon.park@hangang.example",
                birthday: "1985-11-03",
                defaultImage: 7
            )
        ),
    ]
}

/// The demo images, base64 as in `Config/demo-cards.json`.
enum DemoImages {
    static let demoPNG = SeedImage(
        contentType: "image/png",
        data: Data(
            base64Encoded:
                "iVBORw0KGgoAAAANSUhEUgAAACAAAAAgAgMAAAAOFJJnAAAACVBMVEX60lAgoJYoKChWQA3CAAAAf0lEQVR42o3PsQ2CYAAF4e9/wcRQMYKjMIINxnEYhQEsHIEprOltKEkkYKG18aor70rnQ/yU5+0jr3G/E2ZWwshO7DCKFWYxwyqkT084no4nYoRdWKZlwjej+5nRQhFqBsIy1BOVZquHy0FU+k0jisdVK7QUQkNFOLTlTPnj/Q2r9CAFESbviQAAAABJRU5ErkJggg=="
        ) ?? Data()
    )

    static let demoJPEG = SeedImage(
        contentType: "image/jpeg",
        data: Data(
            base64Encoded:
                "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAA0JCgsKCA0LCgsODg0PEyAVExISEyccHhcgLikxMC4pLSwzOko+MzZGNywtQFdBRkxOUlNSMj5aYVpQYEpRUk//2wBDAQ4ODhMREyYVFSZPNS01T09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT0//wAARCAAwADADASIAAhEBAxEB/8QAGQAAAwEBAQAAAAAAAAAAAAAAAgQGBQAD/8QALRAAAgEDAQQJBQEAAAAAAAAAAQIAAwQRBRIhMUETFVFTcYGhotEGJWFzscH/xAAYAQADAQEAAAAAAAAAAAAAAAACBAUDBv/EABsRAAMAAwEBAAAAAAAAAAAAAAABAgMRIQRB/9oADAMBAAIRAxEAPwDKCwwsMLG7Gze8uVoocZ3lsZ2R2y1ltJNswxVvgqFhhZaWljbWa4oUwGxgud7Hz8p6XFtQuU2a9NXA4Z4jwPKSL9ib4uFKE0RQWegWO39ibO42ASyMMqSPTxi4WZ3e1tDmOhULN76aQBrhsDaAUA4385jhY3p9wbS6WrglcYYDmJR9Sdw5RznmyKaTZVToFKrTrIHpOGXtEJmVFLOwUDmTiQ9FjZna2oNqhwMh8A+RmMFj2oXAuqw2M9Gm4Z5/mLhYb5Og8dCgWYHWV533tHxKULJCW31nP+XTTHaer6hTOadyyHhlQB/kJ9Z1GpjpLpmxw2gDj0iE6C4l/BxNod62vu/9i/Ep7MtUtKNRzlmpqSe0kSLlxpy/brb9SfwRD3TMytIYwU99P//Z"
        ) ?? Data()
    )

}
