import ArgumentParser
import CardModels

/// One option per card field, shared by `add` and `edit`.
///
/// Text options set their field; an empty value clears an optional field (`--title ""`). The
/// lists: `--tmi` adds a fun fact and `--tag` a tag, each repeatable; within one value `;`
/// separates facts and `,` separates tags (`--tag "work, golf"` is two tags), as in the TUI's
/// form. In `edit`, giving `--tmi` or `--tag` replaces that whole list (`--tag ""` empties it).
struct CardFieldOptions: ParsableArguments {
    // One option per field: its names and help are the field's descriptor's
    // (`FieldDescriptor.Option`); `givenValues` pairs each with its field.
    @Option(name: .field(.name), help: .field(.name)) var name: String?
    @Option(name: .field(.title), help: .field(.title)) var title: String?
    @Option(name: .field(.company), help: .field(.company)) var company: String?
    @Option(name: .field(.department), help: .field(.department)) var department: String?
    @Option(name: .field(.email), help: .field(.email)) var email: String?
    @Option(name: .field(.phone), help: .field(.phone)) var phone: String?
    @Option(name: .field(.website), help: .field(.website)) var website: String?
    @Option(name: .field(.address), help: .field(.address)) var address: String?
    @Option(name: .field(.bio), help: .field(.bio)) var bio: String?
    @Option(name: .field(.birthday), help: .field(.birthday)) var birthday: String?
    @Option(name: .field(.funFacts), help: .field(.funFacts)) var funFacts: [String] = []
    @Option(name: .field(.tags), help: .field(.tags)) var tags: [String] = []
    @Option(name: .field(.defaultImage), help: .field(.defaultImage)) var avatar: Int?

    /// The values given, by field, as text the way `CardFields[field]` takes it (a repeated
    /// list option's values joined with the list's separator).
    var givenValues: [(CardField, String)] {
        let given: [(CardField, Given)] = [
            (.name, .text(name)), (.title, .text(title)), (.company, .text(company)),
            (.department, .text(department)), (.email, .text(email)), (.phone, .text(phone)),
            (.website, .text(website)), (.address, .text(address)), (.bio, .text(bio)), (.birthday, .text(birthday)),
            (.funFacts, .list(funFacts)), (.tags, .list(tags)), (.defaultImage, .text(avatar.map(String.init))),
        ]
        return given.compactMap { field, value in value.text(for: field).map { (field, $0) } }
    }

    /// What one option holds.
    enum Given {
        case text(String?)
        case list([String])

        /// The option's value as the field's text, or `nil` when not given.
        func text(for field: CardField) -> String? {
            switch self {
            case .text(let text): text
            case .list(let items): items.isEmpty ? nil : items.joined(separator: field.listSeparator ?? ",")
            }
        }
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
        CardField(rawValue: key)?.descriptor.option.flag ?? "--" + key
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

extension NameSpecification {
    /// The long names of `field`'s option (`--tag`, `--tags`).
    static func field(_ field: CardField) -> NameSpecification {
        NameSpecification(field.descriptor.option.names.map { .customLong($0) })
    }
}

extension ArgumentHelp {
    /// The help of `field`'s option.
    static func field(_ field: CardField) -> ArgumentHelp {
        ArgumentHelp(field.descriptor.option.help, valueName: field.descriptor.option.valueName)
    }
}
