import CardImages
import Foundation
import TestSupport
import Testing

/// `cardwallet image`: the picture on standard output, and every way it can fail.
extension EndToEndTests {
    @Test func imagePrintsTheCardsPictureAndFailsClearly() async throws {
        try await CLIWorld.with { world in
            try await world.login()
            // A real 40×20 PNG, left half red, right half blue.
            var picture = RGBAImage(width: 40, height: 20, filledWith: RGBColor(red: 255, green: 0, blue: 0))
            for y in 0..<20 { for x in 20..<40 { picture.setColor(RGBColor(red: 0, green: 0, blue: 255), x: x, y: y) } }
            let png = try world.folder.write(Data(try ImageFileEncoder.png(picture)), to: "half.png")
            let id = try await world.run("add", "--name", "Pictured", "--image", png).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)

            // Not a terminal: auto means half blocks; 24-bit with COLORTERM=truecolor.
            let blocks = try await world.run("image", id, "--width", "10", environment: ["COLORTERM": "truecolor"])
            #expect(blocks.status == 0, "\(blocks)")
            let lines = blocks.stdout.split(separator: "\n")
            #expect(lines.count == 3)  // 10 columns of a 2:1 picture: 5 pixel rows, 3 cell rows
            #expect(lines[0].hasPrefix("\u{1B}[38;2;255;0;0;48;2;255;0;0m▀▀▀▀▀\u{1B}[38;2;0;0;255;48;2;0;0;255m▀▀▀▀▀"))
            #expect(lines.allSatisfy { $0.hasSuffix("\u{1B}[0m") })

            let sixel = try await world.run("image", id, "--protocol", "sixel", "--width", "4")
            #expect(sixel.status == 0, "\(sixel)")
            #expect(sixel.stdout.hasPrefix("\u{1B}P0;1;0q\"1;1;40;20#0;2;100;0;0#1;2;0;0;100"))
            #expect(sixel.stdout.hasSuffix("\u{1B}\\\n"))

            let kitty = try await world.run("image", id, "--protocol", "kitty", "--width", "4")
            #expect(kitty.stdout.hasPrefix("\u{1B}_Ga=T,f=100,t=d,i="), "\(kitty)")
            let kittyInTmux = try await world.run(
                "image", id, "--protocol", "kitty", "--width", "4", environment: ["TMUX": "/tmp/tmux-1/default,1,0"])
            #expect(kittyInTmux.stdout.hasPrefix("\u{1B}Ptmux;\u{1B}\u{1B}_Ga=T,U=1,f=100,t=d,i="), "\(kittyInTmux)")
            #expect(kittyInTmux.stdout.unicodeScalars.contains("\u{10EEEE}"))

            let iterm = try await world.run("image", id, "--protocol", "iterm", "--width", "4")
            #expect(iterm.stdout.hasPrefix("\u{1B}]1337;File=inline=1;size="), "\(iterm)")

            let off = try await world.run("image", id, environment: ["NO_COLOR": "1"])
            #expect(off.status == 0)
            #expect(
                off.stdout
                    == "[image: image/png, \(try ImageFileEncoder.png(picture).count) B; pictures are off: NO_COLOR is set]\n"
            )

            let missing = try await world.run("image", "card_missing")
            #expect(missing.status == 4, "\(missing)")

            let plain = try await world.run("add", "--name", "No Picture").stdout.trimmingCharacters(
                in: .whitespacesAndNewlines)
            let none = try await world.run("image", plain)
            #expect(none.status == 1)
            #expect(none.stderr == "cardwallet: The card \(plain) has no image.\n")

            // The server sniffs only the signature: a PNG that is not one decodes to an error.
            let broken = try world.folder.write(Fixtures.png, to: "broken.png")
            let brokenID = try await world.run("add", "--name", "Broken", "--image", broken).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let undecodable = try await world.run("image", brokenID)
            #expect(undecodable.status == 1)
            #expect(
                undecodable.stderr.hasPrefix(
                    "cardwallet: The image of card \(brokenID) cannot be shown. The PNG image cannot be decoded: "))
            #expect(undecodable.stderr.split(separator: "\n").count == 1)
            #expect(undecodable.stdout.isEmpty)

            let usage = try await world.run("image", id, "--width", "0")
            #expect(usage.status == 64)
            let badProtocol = try await world.run("image", id, "--protocol", "gif")
            #expect(badProtocol.status == 64)
        }
    }
}
