import Foundation

/// Small formatting helpers for messages: paths, modes, users, durations.
enum Quoting {
    /// A path for prose: control characters escaped so a hostile path cannot drive a terminal.
    static func display(_ path: String) -> String {
        var result = ""
        for scalar in path.unicodeScalars {
            if scalar.properties.generalCategory == .control {
                result += scalar.escaped(asASCII: true)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A path as one shell word, for "fix it with" commands a person may paste.
    static func shell(_ path: String) -> String {
        let plain = path.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                    || "/._-+,:@%".unicodeScalars.contains(scalar))
        }
        if plain && !path.isEmpty { return path }
        return "'" + display(path).replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// A file mode as four octal digits, like `0644` (or five with special bits, like `1777`).
    static func octal(_ mode: UInt32) -> String {
        let text = String(mode & 0o7777, radix: 8)
        return String(repeating: "0", count: max(0, 4 - text.count)) + text
    }

    /// `uid 65534 (nobody)`, or just `uid 65534` when the name is unknown.
    static func user(_ uid: UInt32) -> String {
        if let name = POSIX.userName(uid) { return "uid \(uid) (\(name))" }
        return "uid \(uid)"
    }

    /// The user as `chown` takes it: the name when known, else the number.
    static func owner(_ uid: UInt32) -> String {
        POSIX.userName(uid) ?? String(uid)
    }

    /// `30 seconds`, `1.5 seconds`.
    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = Int64(seconds) * 1000 + attoseconds / 1_000_000_000_000_000
        if milliseconds % 1000 == 0 {
            let whole = milliseconds / 1000
            return whole == 1 ? "1 second" : "\(whole) seconds"
        }
        return "\(Double(milliseconds) / 1000) seconds"
    }
}
