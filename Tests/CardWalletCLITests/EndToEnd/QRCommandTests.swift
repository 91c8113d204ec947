import CardImages
import Foundation
import TestSupport
import Testing

/// `cardwallet qr`: the card's vCard as a QR code, as text and as a PNG (zxing-cpp reads both
/// back in scripts/e2e-tui.py).
extension EndToEndTests {
    @Test func qrPrintsTheSameSymbolAsTextAndAsAPNG() async throws {
        try await CLIWorld.with { world in
            try await world.login()
            let id = try await world.run(
                "add", "--name", "김민지", "--email", "minji@example.com", "--phone", "+82 10 1234 5678"
            )
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)

            let text = try await world.run("qr", id)
            #expect(text.status == 0, "\(text)")
            let lines = text.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
            let side = try #require(lines.first?.count)
            // The quiet zone: two rows of full blocks (light modules) on top, 4 columns each side.
            #expect(side >= 21 + 8 && lines.count == (side + 1) / 2)
            #expect(lines.allSatisfy { $0.count == side && $0.hasPrefix("████") })
            #expect(lines[0] == String(repeating: "█", count: side) && lines[1] == lines[0])

            let inverted = try await world.run("qr", id, "--invert")
            #expect(inverted.stdout.split(separator: "\n").first == Substring(String(repeating: " ", count: side)))

            // The PNG holds the same modules, 8 pixels each, dark on light.
            let file = world.folder.path("code.png")
            let written = try await world.run("qr", id, "--png", file)
            #expect(written.status == 0, "\(written)")
            #expect(written.stdout == "Wrote the QR code of 김민지 to \(file)\n")
            let image = try ImageDecoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: file))))
            #expect(image.width == side * 8 && image.height == side * 8)
            func light(_ x: Int, _ y: Int) -> Bool {
                y >= side ? true : image.color(x: x * 8 + 4, y: y * 8 + 4).red > 127
            }
            var redrawn: [String] = []
            for top in stride(from: 0, to: side, by: 2) {
                redrawn.append(
                    String(
                        (0..<side).map { x -> Character in
                            switch (light(x, top), light(x, top + 1)) {
                            case (true, true): "█"
                            case (true, false): "▀"
                            case (false, true): "▄"
                            case (false, false): " "
                            }
                        }))
            }
            #expect(redrawn == lines)

            let missing = try await world.run("qr", "card_missing")
            #expect(missing.status == 4, "\(missing)")
            let unwritable = try await world.run("qr", id, "--png", "/nonexistent-folder/code.png")
            #expect(
                unwritable.status == 1
                    && unwritable.stderr.hasPrefix("cardwallet: /nonexistent-folder/code.png cannot be written"))
            #expect(unwritable.stderr.split(separator: "\n").count == 1)
        }
    }
}
