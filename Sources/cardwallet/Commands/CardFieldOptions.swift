import ArgumentParser
import CardModels

/// One option per card field, shared by `add` and `edit`.
///
/// Text options set their field; an empty value clears an optional field (`--title ""`). The
/// lists: `--tmi` adds a fun fact and `--tag` a tag, each repeatable; within one value `;`
/// separates facts and `,` separates tags (`--tag "work, golf"` is two tags), as in the TUI's
/// form. In `edit`, giving `--tmi` or `--tag` replaces that whole list (`--tag ""` empties it).
struct CardFieldOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The name (required for add): 1–64 characters.", valueName: "text"))
    var name: String?

    @Option(help: ArgumentHelp("Job title, up to 100 characters.", valueName: "text"))
    var title: String?

    @Option(help: ArgumentHelp("Company or organisation, up to 100 characters.", valueName: "text"))
    var company: String?

    @Option(help: ArgumentHelp("Department or team, up to 100 characters.", valueName: "text"))
    var department: String?

    @Option(help: ArgumentHelp("Email address, e.g. ada@example.com.", valueName: "address"))
    var email: String?

    @Option(
        help: ArgumentHelp(
            "Phone number: at least 3 digits; spaces and the characters + - ( ) . may go between them.",
            valueName: "number"))
    var phone: String?

    @Option(help: ArgumentHelp("An http:// or https:// address.", valueName: "url"))
    var website: String?

    @Option(help: ArgumentHelp("Postal address, up to 200 characters.", valueName: "text"))
    var address: String?

    @Option(help: ArgumentHelp("A short biography, up to 500 characters.", valueName: "text"))
    var bio: String?

    @Option(help: ArgumentHelp("Birthday as YYYY-MM-DD.", valueName: "date"))
    var birthday: String?

    @Option(
        name: .customLong("tmi"),
        help: ArgumentHelp(
            "A fun fact (up to 3, each up to 100 characters). Repeat the option, or separate facts with ;.",
            valueName: "fact"))
    var tmi: [String] = []

    @Option(
        name: [.customLong("tag"), .customLong("tags")],
        help: ArgumentHelp(
            "A tag (up to 10, each up to 32 characters). Repeat the option, or separate tags with ,.",
            valueName: "tag"))
    var tags: [String] = []

    @Option(
        name: [.customLong("avatar"), .customLong("default-image")],
        help: ArgumentHelp("The avatar shown when the card has no image: a number from 0 to 7.", valueName: "n"))
    var avatar: Int?

    /// The values given, by field, as text the way `CardFields[field]` takes it.
    var givenValues: [(CardField, String)] {
        var values: [(CardField, String?)] = [
            (.name, name), (.title, title), (.company, company), (.department, department), (.email, email),
            (.phone, phone), (.website, website), (.address, address), (.bio, bio), (.birthday, birthday),
            (.tmi, tmi.isEmpty ? nil : tmi.joined(separator: ";")),
            (.tags, tags.isEmpty ? nil : tags.joined(separator: ",")),
        ]
        values.append((.defaultImage, avatar.map(String.init)))
        return values.compactMap { field, value in value.map { (field, $0) } }
    }

    /// Whether any field option was given.
    var isEmpty: Bool { givenValues.isEmpty }

    /// `fields` with every given option applied.
    func applied(to fields: CardFields) -> CardFields {
        var fields = fields
        for (field, value) in givenValues { fields[field] = value }
        return fields.normalized()
    }

    /// The option that sets `field`, for messages: `--email`, `--tmi`, `--avatar`.
    static func optionName(for key: String) -> String {
        switch key {
        case CardField.defaultImage.key: "--avatar"
        case CardField.tags.key: "--tag"
        default: "--" + key
        }
    }

    /// The problems with `fields` as one sentence naming the options, or `nil` when valid.
    static func problems(in fields: CardFields) -> String? {
        let problems = fields.validate()
        guard !problems.isEmpty else { return nil }
        let list = problems.sorted { $0.key < $1.key }.map { "\(optionName(for: $0.key)) \($0.value)" }
        var text = "Invalid card: " + list.joined(separator: "; ")
        // The phone's rule ends with the period it allows ("+ - ( ) ."): it ends the sentence too.
        if !text.hasSuffix(".") { text += "." }
        return text + " Nothing was sent."
    }
}
