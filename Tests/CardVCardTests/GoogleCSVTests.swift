import CardModels
import CardVCard
import Foundation
import Testing

/// The CSV that Google Contacts imports.
@Suite struct GoogleCSVTests {
    @Test func headerAndARow() throws {
        #expect(GoogleCSV.headerLine.hasPrefix("Name,Given Name,Additional Name,Family Name,"))
        #expect(GoogleCSV.headerLine.hasSuffix("Website 1 - Type,Website 1 - Value\r\n"))
        let row = GoogleCSV.row(.stored(WriterTests.ada))
        let cells = try Self.parse(GoogleCSV.headerLine + row)
        #expect(cells.count == 2)
        let record = Dictionary(uniqueKeysWithValues: zip(cells[0], cells[1]))
        #expect(record["Name"] == "Ada Lovelace")
        #expect(record["Given Name"] == "Ada" && record["Family Name"] == "Lovelace")
        #expect(record["E-mail 1 - Value"] == "ada@example.com" && record["E-mail 1 - Type"] == "* Work")
        #expect(
            record["Organization 1 - Name"] == "Analytical Engines"
                && record["Organization 1 - Department"] == "Research")
        #expect(record["Notes"] == "Wrote; the first\nprogram, really")
        #expect(record["Group Membership"] == "* myContacts ::: math ::: history")
        #expect(record["Birthday"] == "1815-12-10")
        #expect(row.hasSuffix("\r\n"))
    }

    @Test func theNamePartsOfTheImportedN() throws {
        let card = try Fixture.single("ios-30-grouped.vcf")
        let cells = try Self.parse(GoogleCSV.headerLine + GoogleCSV.row(.stored(card.fields)))
        let record = Dictionary(uniqueKeysWithValues: zip(cells[0], cells[1]))
        #expect(
            record["Name Prefix"] == "Countess" && record["Given Name"] == "Ada" && record["Family Name"] == "Lovelace")
    }

    /// A small RFC 4180 reader, to read back what was written.
    static func parse(_ text: String) throws -> [[String]] {
        var rows: [[String]] = [[]]
        var cell = ""
        var quoted = false
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            if quoted {
                if character == "\"" {
                    if characters.first == "\"" {
                        cell.append("\"")
                        characters.removeFirst()
                    } else {
                        quoted = false
                    }
                } else {
                    cell.append(character)
                }
            } else if character == "\"" {
                quoted = true
            } else if character == "," {
                rows[rows.count - 1].append(cell)
                cell = ""
            } else if character == "\r\n" || character == "\n" {
                rows[rows.count - 1].append(cell)
                cell = ""
                rows.append([])
            } else {
                cell.append(character)
            }
        }
        if rows.last?.isEmpty == true { rows.removeLast() }
        #expect(rows.allSatisfy { $0.count == GoogleCSV.header.count })
        return rows
    }
}
