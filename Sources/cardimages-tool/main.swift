// cardimages-tool: CardImages from the command line, for scripts/image-peers.py (which checks
// our output with decoders we did not write) and for looking at the encoders by hand.
// A test helper like tokenstore-stress: not shipped, no stable interface.
import CardImages
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

let usage = """
    usage:
      cardimages-tool render FILE --protocol kitty|iterm|sixel|blocks|blocks256 [--columns N] [--rows N]
                      [--tmux] [--cell WxH] [--cursor] [--id N]
      cardimages-tool decode FILE [--png OUT] [--at-least WxH]
      cardimages-tool qr (--text TEXT | --text-file FILE) [--png OUT] [--invert] [--cells] [--level L|M|Q|H]
      cardimages-tool detect
    """

func fail(_ message: String, status: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data("cardimages-tool: \(message)\n".utf8))
    exit(status)
}

func emit(_ bytes: [UInt8]) {
    FileHandle.standardOutput.write(Data(bytes))
}

struct Options {
    var positional: [String] = []
    var values: [String: String] = [:]
    var flags: Set<String> = []

    init(_ arguments: ArraySlice<String>, flags known: Set<String>) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            if argument.hasPrefix("--") {
                let name = String(argument.dropFirst(2))
                if known.contains(name) {
                    flags.insert(name)
                } else if let value = iterator.next() {
                    values[name] = value
                } else {
                    fail("\(argument) needs a value", status: 64)
                }
            } else {
                positional.append(argument)
            }
        }
    }

    func int(_ name: String, default value: Int) -> Int {
        guard let text = values[name] else { return value }
        guard let number = Int(text), number > 0 else { fail("--\(name) wants a positive number", status: 64) }
        return number
    }

    func size(_ name: String) -> PixelSize? {
        guard let text = values[name] else { return nil }
        let parts = text.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts[0] > 0, parts[1] > 0 else { fail("--\(name) wants WxH", status: 64) }
        return PixelSize(width: parts[0], height: parts[1])
    }
}

func readFile(_ path: String) -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
    return Array(data)
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else { fail(usage, status: 64) }
switch arguments[1] {
case "render":
    let options = Options(arguments.dropFirst(2), flags: ["tmux", "cursor"])
    guard let path = options.positional.first else { fail(usage, status: 64) }
    let name = options.values["protocol"] ?? "blocks"
    var graphics: GraphicsChoice
    switch name {
    case "blocks256": graphics = GraphicsChoice(imageProtocol: .blocks, depth: .palette256)
    default:
        guard let chosen = ImageProtocol(rawValue: name) else { fail("unknown protocol \(name)", status: 64) }
        graphics = GraphicsChoice(imageProtocol: chosen)
    }
    graphics.tmux = options.flags.contains("tmux")
    if let cell = options.size("cell") { graphics.cellPixels = cell }
    let box = CellSize(columns: options.int("columns", default: 40), rows: options.int("rows", default: 1000))
    do {
        let rendered = try ImageRenderer.render(
            file: readFile(path), in: box, graphics: graphics, kittyImageID: UInt32(options.int("id", default: 1)),
            kittyPlacement: options.flags.contains("cursor") ? .cursor : .placeholders)
        emit(rendered.streamBytes)
        FileHandle.standardError.write(
            Data(
                "cells \(rendered.cells.columns)x\(rendered.cells.rows) pixels \(rendered.pixelSize.width)x\(rendered.pixelSize.height)\n"
                    .utf8))
    } catch {
        fail(error.description)
    }
case "decode":
    let options = Options(arguments.dropFirst(2), flags: [])
    guard let path = options.positional.first else { fail(usage, status: 64) }
    do {
        let image = try ImageDecoder.decode(readFile(path), atLeast: options.size("at-least"))
        print("\(image.width)x\(image.height)")
        if let output = options.values["png"] {
            _ = FileManager.default.createFile(atPath: output, contents: Data(try ImageFileEncoder.png(image)))
        }
    } catch let error as ImageDecodeError {
        fail(error.description)
    } catch {
        fail(String(describing: error))
    }
case "qr":
    let options = Options(arguments.dropFirst(2), flags: ["invert", "cells"])
    let text: String
    if let file = options.values["text-file"] {
        text = String(decoding: readFile(file), as: UTF8.self)
    } else if let given = options.values["text"] {
        text = given
    } else {
        fail(usage, status: 64)
    }
    let level = QRCode.Level(rawValue: options.values["level"] ?? "M") ?? .medium
    do {
        let code = try QRCode(text: text, level: level)
        if let output = options.values["png"] {
            _ = FileManager.default.createFile(
                atPath: output, contents: Data(try code.png(scale: options.int("scale", default: 8))))
        } else if options.flags.contains("cells") {
            emit(Array(ImageCell.text(of: code.cells()).utf8))
        } else {
            emit(Array(code.halfBlockText(inverted: options.flags.contains("invert")).utf8))
        }
        FileHandle.standardError.write(
            Data(
                "version \(code.version) size \(code.size) needs \(code.requiredCells.columns)x\(code.requiredCells.rows)\n"
                    .utf8))
    } catch let error as QRCode.EncodeError {
        fail(error.description)
    } catch {
        fail(String(describing: error))
    }
case "detect":
    print(TerminalProbe.detect().description)
default:
    fail(usage, status: 64)
}
