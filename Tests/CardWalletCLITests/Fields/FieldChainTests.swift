import ArgumentParser
import CardCache
import CardModels
import CardVCard
import CardWalletUI
import Foundation
import Logging
import TestSupport
import Testing

@testable import cardwallet

/// Every field's descriptor walked through the whole chain, from the command line to the
/// screen: its `--FIELD` option, validation, the JSON coding, the cache (stored, read back,
/// searched), the vCard writer and importer (3.0 and 4.0), the detail view and `show`. A field
/// that some layer has no answer for fails here, by name, instead of going missing quietly.
@Suite struct FieldChainTests {
    /// A value of `descriptor`'s kind: as typed after its option, as stored, and a piece of it to
    /// search for (`nil` for fields that are not searched).
    struct Sample {
        var typed: String
        var value: FieldValue
        var needle: String?
        /// What the detail view shows of it.
        var shown: String
    }

    static func sample(_ descriptor: FieldDescriptor) -> Sample {
        let needle = descriptor.searchRank == nil ? nil : "quixotic"
        switch descriptor.kind {
        case .shortText, .longText:
            let text = "Quixotic \(descriptor.label)"
            return Sample(typed: text, value: .text(text), needle: needle, shown: text)
        case .email:
            return Sample(
                typed: "quixotic@example.com", value: .text("quixotic@example.com"), needle: needle,
                shown: "quixotic@example.com")
        case .phone:
            return Sample(
                typed: "+82 10-5550-1234", value: .text("+82 10-5550-1234"),
                needle: descriptor.searchRank == nil ? nil : "5550", shown: "+82 10-5550-1234")
        case .url:
            let url = "https://quixotic.example.com/card"
            return Sample(typed: url, value: .text(url), needle: needle, shown: url)
        case .date:
            return Sample(typed: "1990-04-01", value: .text("1990-04-01"), needle: nil, shown: "1990-04-01")
        case .list(let style):
            let items = ["Quixotic one", "second"]
            return Sample(
                typed: items.joined(separator: style.joiner), value: .list(items), needle: needle, shown: items[0])
        case .number(let range):
            return Sample(
                typed: String(range.upperBound), value: .number(range.upperBound), needle: nil,
                shown: String(range.upperBound))
        }
    }

    /// A value past the field's limits.
    static func broken(_ descriptor: FieldDescriptor) -> FieldValue {
        let long = String(repeating: "x", count: descriptor.maxLength + 1)
        switch descriptor.kind {
        case .shortText, .longText, .phone: return .text(long)
        case .email: return .text(long + "@example.com")
        case .url: return .text("https://example.com/" + long)
        case .date: return .text("1990-02-30")
        case .list(let style): return .list(Array(repeating: "item", count: style.maximumCount + 1))
        case .number(let range): return .number(range.upperBound + 1)
        }
    }

    /// The card holding the sample in `field` (and a plain name beside it).
    static func card(_ field: CardField) throws -> Card {
        let descriptor = field.descriptor
        let sample = sample(descriptor)
        var arguments = ["--" + descriptor.option.names[0], sample.typed]
        if field != .name { arguments += ["--name", "Base"] }
        let fields = try CardFieldOptions.parse(arguments).applied(to: CardFields(name: ""))
        return Card(
            id: "c-\(field.key)", fields: fields, createdAt: Date(timeIntervalSince1970: 1_800_000_000),
            updatedAt: Date(timeIntervalSince1970: 1_800_000_100), revision: CardRevision(3))
    }

    @Test(arguments: CardField.allCases)
    func theOptionSetsTheFieldAndValidationKnowsIt(field: CardField) throws {
        let descriptor = field.descriptor
        let sample = Self.sample(descriptor)
        let fields = try Self.card(field).fields
        #expect(fields[value: field] == sample.value, "--\(descriptor.option.names[0]) \(sample.typed)")
        #expect(fields.validate().isEmpty, "\(fields.validate())")
        // Every long name of the option works.
        for name in descriptor.option.names.dropFirst() {
            let other = try CardFieldOptions.parse(["--" + name, sample.typed, "--name", "Base"])
            #expect(other.applied(to: CardFields(name: ""))[value: field] == sample.value, "--\(name)")
        }

        var broken = fields
        broken[value: field] = Self.broken(descriptor)
        let problem = try #require(broken.problem(for: field), "\(Self.broken(descriptor)) is refused")
        #expect(broken.validate()[field.key] == problem)
        let message = try #require(CardFieldOptions.problems(in: broken))
        #expect(message.contains("\(descriptor.option.flag) \(problem)"), "\(message)")
    }

    @Test(arguments: CardField.allCases)
    func theCardsJSONAndTheCacheKeepTheFieldAndTheSearchFindsIt(field: CardField) throws {
        let card = try Self.card(field)
        let sample = Self.sample(field.descriptor)
        let json = try CardWalletJSON.encoder().encode(card)
        #expect(try CardWalletJSON.decoder().decode(Card.self, from: json) == card)

        let folder = try TemporaryFolder("field-chain")
        defer { folder.remove() }
        let cache = try CardCache.open(
            server: "http://127.0.0.1:8080/v1", account: "ada@example.com",
            location: CacheLocation(folder: folder.path("cache")), logger: Logger(label: "test.cache"))
        defer { cache.close() }
        try cache.storeList([card.summary], confirmedAt: card.updatedAt)
        try cache.storeCard(card, confirmedAt: card.updatedAt)
        #expect(try cache.card(id: card.id)?.card == card)

        let found = try cache.search(sample.needle ?? sample.typed, excerpts: true)
        if let needle = sample.needle {
            #expect(found.hits.map(\.cardID) == [card.id], "“\(needle)” finds the card")
            #expect(found.hits.first?.field == field, "and says it matched in \(field)")
            #expect(found.hits.first?.excerpt?.isEmpty == false)
        } else {
            #expect(found.hits.isEmpty, "\(field) is not searched")
        }
    }

    @Test(arguments: CardField.allCases)
    func theFieldGoesThroughVCardAndBack(field: CardField) throws {
        let card = try Self.card(field)
        let descriptor = field.descriptor
        for version in [VCardVersion.v30, .v40] {
            let bytes = VCardWriter(version: version).write(card)
            let text = String(decoding: bytes, as: UTF8.self)
            if let place = descriptor.vCard {
                #expect(text.contains("\r\n" + place.property), "\(place.property) in \(text)")
            }
            let document = VCardDocument.read(bytes: bytes)
            let read = try #require(document.cards.first, "\(document.problems)")
            #expect(read.fields[value: field] == card.fields[value: field], "\(version): \(text)")
            #expect(read.fields.vcardProperties.isEmpty, "written as the importer reads it: \(read.fields)")
        }
    }

    @Test(arguments: CardField.allCases)
    func theDetailViewAndShowSayIt(field: CardField) throws {
        let card = try Self.card(field)
        let descriptor = field.descriptor
        let sample = Self.sample(descriptor)
        let lines = DetailLines.make(DetailState(summary: card.summary, card: card), width: 100)
        switch descriptor.detail {
        case .heading:
            #expect(lines.first?.text == sample.shown && lines.first?.role == .title, "\(lines)")
        case .subtitle:
            #expect(lines.contains { $0.role == .subtitle && $0.text.contains(sample.shown) }, "\(lines)")
        case .row:
            let row = try #require(
                lines.firstIndex { $0.label == descriptor.label }, "a row labelled \(descriptor.label)")
            #expect(lines[row].text.contains(sample.shown), "\(lines[row])")
        case .avatar:
            #expect(lines.contains { $0.label == "Image" && $0.text.hasSuffix("avatar \(sample.shown)") }, "\(lines)")
        }
        let shown = CardText.detail(card)
        #expect(shown.contains("\(descriptor.label):") && shown.contains(sample.shown), "\(shown)")
    }

    @Test func theOptionsAreTheFieldsOptionsAndNoOthers() throws {
        let help = CardFieldOptions.helpMessage(columns: 200)
        for descriptor in CardField.table {
            let names = descriptor.option.names.map { "--" + $0 }.joined(separator: ", ")
            #expect(help.contains("\n  \(names) <\(descriptor.option.valueName)>"), "\(names) in \(help)")
            #expect(help.contains(descriptor.option.help), "\(descriptor.option.help)")
        }
        let declared = help.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("--") }
        #expect(declared.count == CardField.allCases.count, "one option per field: \(declared)")
    }
}
