import Foundation
import Testing

@testable import CardWalletUI

/// `docs/TUI.md` lists the keys with the same tables the reducer dispatches on and help prints,
/// so the documentation cannot drift from the program either.
@Suite struct KeyDocumentationTests {
    /// Every key table, in the order the document lists them.
    static let tables: [KeyTable] = [
        KeyTables.login, KeyTables.list, KeyTables.filter, KeyTables.detail, KeyTables.copy, KeyTables.qr,
        KeyTables.form, KeyTables.newCard,
        KeyTables.conflict, KeyTables.scanPrompt, KeyTables.scanning, KeyTables.exportPrompt, KeyTables.importPrompt,
        KeyTables.importPreview, KeyTables.transferWorking, KeyTables.importReport,
        KeyTables.multilineText, KeyTables.textField, KeyTables.confirm, KeyTables.pager, AccountPicker.keys,
        BookPicker.keys, MergeScreen.keys,
        KeyTables.log,
        KeyTables.reauth, KeyTables.global,
        KeyTables.typingGlobal, KeyTables.interrupt,
    ]

    /// A key table as a Markdown table: the keys in code spans, then what they do.
    static func markdown(_ table: KeyTable) -> String {
        var lines = ["| Keys | What they do |", "| --- | --- |"]
        for binding in table.bindings {
            let keys = binding.keys.map { pattern -> String in
                switch pattern {
                case .key(let key): "`\(key.displayName)`"
                case .printable: "any character"
                case .anyKey: "any key"
                }
            }
            lines.append("| \(keys.joined(separator: " ")) | \(binding.summary) |")
        }
        return lines.joined(separator: "\n")
    }

    static func document() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("docs/TUI.md"), encoding: .utf8)
    }

    @Test(arguments: tables.map(\.title))
    func theDocumentListsEveryKeyOfTheTable(title: String) throws {
        let table = try #require(Self.tables.first { $0.title == title })
        let document = try Self.document()
        let expected = "<!-- keys: \(table.title) -->\n" + Self.markdown(table) + "\n"
        #expect(document.contains(expected), "docs/TUI.md should hold, verbatim:\n\(expected)")
    }
}
