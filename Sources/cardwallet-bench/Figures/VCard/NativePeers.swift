import Foundation

/// One round of a peer on a file: its times in seconds and what it read and wrote.
struct PeerRound: Decodable, Sendable {
    var cards: Int
    /// Wall clock.
    var parse: Double
    var export: Double
    /// CPU time of the thread that did the work (the JVM's GC and JIT threads aside).
    var parseCPU: Double
    var exportCPU: Double
    /// CPU time of the whole process (GC and JIT threads included).
    var parseProcessCPU: Double?
    var exportProcessCPU: Double?
    /// Bytes of the export.
    var bytes: Int
}

/// A native vCard library timed in a process of its own that stays up for the whole figure:
/// it warms up (the JIT's compilations, the page cache), says `ready`, then answers each
/// `round` line on its standard input with one JSON line: parse the file (read included) into
/// its own model, then write every card back as vCard 3.0 into memory.
///
/// The drivers are ours (a few dozen lines each, below); the libraries are the Debian
/// packages `scripts/bootstrap` installs. The bench builds a driver when it is first needed,
/// into `.build/bench-peers/` next to its own executable (a changed driver gets a new name).
struct NativePeer: Sendable {
    /// The name in tables: `KContacts 5.103`, `ez-vcard 0.11.2`.
    var name: String
    /// The command that runs the driver (its file and the number of warm-up rounds follow).
    var command: [String]

    /// A running driver on one file.
    final class Session {
        private let process = Process()
        private let input = Pipe()
        private let output = Pipe()
        private var buffer: [UInt8] = []
        let peer: NativePeer

        /// Starts the driver on `file` and waits until it is warm.
        init(_ peer: NativePeer, file: String, warmups: Int, extra: [String] = []) throws {
            self.peer = peer
            process.executableURL = URL(fileURLWithPath: peer.command[0])
            process.arguments = Array(peer.command.dropFirst()) + ["serve", file, String(warmups)] + extra
            process.standardInput = input
            process.standardOutput = output
            // KCodecs writes a warning per quoted-printable value; nothing of it is needed.
            process.standardError = FileHandle.nullDevice
            do {
                try process.run()
            } catch {
                throw BenchError("cannot start \(peer.name): \(error.localizedDescription)")
            }
            guard try line() == "ready" else { throw BenchError("\(peer.name) did not warm up") }
        }

        /// One timed round.
        func round() throws -> PeerRound {
            try input.fileHandleForWriting.write(contentsOf: Data("round\n".utf8))
            let text = try line()
            guard let round = try? JSONDecoder().decode(PeerRound.self, from: Data(text.utf8)) else {
                throw BenchError("\(peer.name) answered “\(text.prefix(200))”")
            }
            return round
        }

        /// Every line the driver prints until it ends (the `dump` command's cards).
        func lines(command: String) throws -> [String] {
            try input.fileHandleForWriting.write(contentsOf: Data((command + "\n").utf8))
            var lines: [String] = []
            while true {
                let text = try line()
                if text == "end" { return lines }
                lines.append(text)
            }
        }

        /// Ends the driver (its standard input closes).
        func stop() {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }

        private func line() throws -> String {
            while true {
                if let newline = buffer.firstIndex(of: 10) {
                    let text = String(decoding: buffer[..<newline], as: UTF8.self)
                    buffer.removeSubrange(...newline)
                    return text
                }
                let data = output.fileHandleForReading.availableData
                if data.isEmpty {
                    process.waitUntilExit()
                    throw BenchError("\(peer.name) ended (status \(process.terminationStatus))")
                }
                buffer += data
            }
        }
    }

    /// The peers installed here, each built when needed; the reasons the others are not.
    static func available(buildFolder: String) -> (peers: [NativePeer], skipped: [String]) {
        var peers: [NativePeer] = []
        var skipped: [String] = []
        for make in [kcontacts, ezVCard] {
            switch make(buildFolder) {
            case .success(let peer): peers.append(peer)
            case .failure(let error): skipped.append(error.description)
            }
        }
        return (peers, skipped)
    }

    /// Where drivers are built: `.build/bench-peers`, beside the bench's own executable's folder.
    static func buildFolder(benchExecutable: String) -> String {
        URL(fileURLWithPath: benchExecutable).resolvingSymlinksInPath().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("bench-peers").path
    }

    // MARK: KContacts

    static let kcontactsHeader = "/usr/include/KF5/KContacts/KContacts/VCardConverter"

    static func kcontacts(buildFolder: String) -> Result<NativePeer, BenchError> {
        let missing = BenchError("KContacts not installed (apt-get install libkf5contacts-dev g++ pkg-config)")
        guard FileManager.default.fileExists(atPath: kcontactsHeader), let compiler = Tools.find("g++"),
            let pkgConfig = Tools.find("pkg-config"),
            let qt = try? Spawn.captured(pkgConfig, ["--cflags", "--libs", "Qt5Core", "Qt5Gui"]), qt.status == 0
        else { return .failure(missing) }
        let version =
            (try? String(contentsOfFile: "/usr/include/KF5/KContacts/kcontacts_version.h", encoding: .utf8))
            .flatMap { text in
                text.split(separator: "\n").first { $0.contains("_VERSION_STRING") }
                    .flatMap { $0.split(separator: "\"").dropFirst().first.map(String.init) }
            } ?? "5"
        let binary = buildFolder + "/kcontacts-round-\(Tools.digest(kcontactsDriver))"
        if !FileManager.default.isExecutableFile(atPath: binary) {
            do {
                try FileManager.default.createDirectory(atPath: buildFolder, withIntermediateDirectories: true)
                let source = binary + ".cpp"
                try Data(kcontactsDriver.utf8).write(to: URL(fileURLWithPath: source))
                let flags = qt.output.split(whereSeparator: \.isWhitespace).map(String.init)
                let (status, _) = try Spawn.captured(
                    compiler,
                    [
                        "-O2", "-std=c++17", "-fPIC", source, "-o", binary, "-I/usr/include/KF5/KContacts",
                        "-I/usr/include/KF5",
                    ]
                        + flags + ["-lKF5Contacts"])
                guard status == 0 else {
                    return .failure(BenchError("the KContacts driver did not build (g++ \(status))"))
                }
            } catch {
                return .failure(BenchError("the KContacts driver did not build: \(error)"))
            }
        }
        return .success(NativePeer(name: "KContacts \(version)", command: [binary]))
    }

    /// The KContacts driver: `serve FILE WARMUPS`.
    static let kcontactsDriver = #"""
        // cardwallet-bench's driver for KDE KContacts (issue 43): parse a vCard file with
        // VCardConverter::parseVCards, write every card back with createVCards (vCard 3.0).
        #include <KContacts/VCardConverter>
        #include <QFile>
        #include <cstdio>
        #include <ctime>
        #include <iostream>
        #include <string>

        static double clockSeconds(clockid_t clock) {
            timespec time;
            clock_gettime(clock, &time);
            return time.tv_sec + time.tv_nsec / 1e9;
        }

        static void round(const char *path, bool print) {
            double wall0 = clockSeconds(CLOCK_MONOTONIC), cpu0 = clockSeconds(CLOCK_THREAD_CPUTIME_ID);
            double process0 = clockSeconds(CLOCK_PROCESS_CPUTIME_ID);
            QFile file(QString::fromUtf8(path));
            if (!file.open(QIODevice::ReadOnly)) { std::printf("cannot read %s\n", path); std::exit(1); }
            KContacts::VCardConverter converter;
            KContacts::Addressee::List cards = converter.parseVCards(file.readAll());
            double wall1 = clockSeconds(CLOCK_MONOTONIC), cpu1 = clockSeconds(CLOCK_THREAD_CPUTIME_ID);
            double process1 = clockSeconds(CLOCK_PROCESS_CPUTIME_ID);
            QByteArray out = converter.createVCards(cards, KContacts::VCardConverter::v3_0);
            double wall2 = clockSeconds(CLOCK_MONOTONIC), cpu2 = clockSeconds(CLOCK_THREAD_CPUTIME_ID);
            double process2 = clockSeconds(CLOCK_PROCESS_CPUTIME_ID);
            if (print) {
                std::printf("{\"cards\":%d,\"parse\":%.6f,\"export\":%.6f,\"parseCPU\":%.6f,\"exportCPU\":%.6f,"
                            "\"parseProcessCPU\":%.6f,\"exportProcessCPU\":%.6f,\"bytes\":%d}\n",
                            int(cards.size()), wall1 - wall0, wall2 - wall1, cpu1 - cpu0, cpu2 - cpu1,
                            process1 - process0, process2 - process1, int(out.size()));
                std::fflush(stdout);
            }
        }

        int main(int argc, char **argv) {
            if (argc < 4 || std::string(argv[1]) != "serve") { std::puts("usage: serve FILE WARMUPS"); return 2; }
            for (int i = 0; i < std::atoi(argv[3]); i++) round(argv[2], false);
            std::puts("ready");
            std::fflush(stdout);
            std::string line;
            while (std::getline(std::cin, line)) {
                if (line == "round") round(argv[2], true);
            }
            return 0;
        }
        """#

    // MARK: ez-vcard

    static let ezVCardJars = ["/usr/share/java/ez-vcard.jar", "/usr/share/java/vinnie.jar"]

    static func ezVCard(buildFolder: String) -> Result<NativePeer, BenchError> {
        let missing = BenchError(
            "ez-vcard not installed (apt-get install libez-vcard-java libvinnie-java default-jdk-headless)")
        guard ezVCardJars.allSatisfy({ FileManager.default.fileExists(atPath: $0) }), let javac = Tools.find("javac"),
            let java = Tools.find("java")
        else { return .failure(missing) }
        let folder = buildFolder + "/ezvcard-round-\(Tools.digest(ezVCardDriver))"
        let classPath = (ezVCardJars + [folder]).joined(separator: ":")
        if !FileManager.default.fileExists(atPath: folder + "/EzVCardRound.class") {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                let source = folder + "/EzVCardRound.java"
                try Data(ezVCardDriver.utf8).write(to: URL(fileURLWithPath: source))
                let (status, _) = try Spawn.captured(javac, ["-cp", classPath, "-d", folder, source])
                guard status == 0 else {
                    return .failure(BenchError("the ez-vcard driver did not build (javac \(status))"))
                }
            } catch {
                return .failure(BenchError("the ez-vcard driver did not build: \(error)"))
            }
        }
        let command = [java, "-cp", classPath, "EzVCardRound"]
        let version = (try? Spawn.captured(java, ["-cp", classPath, "EzVCardRound", "version"]))
            .map { $0.output.trimmingCharacters(in: .whitespacesAndNewlines) }
        return .success(NativePeer(name: "ez-vcard \(version ?? "")", command: command))
    }

    /// The ez-vcard driver: `serve FILE WARMUPS` (then `round` or `dump` lines), `version`.
    static let ezVCardDriver = #"""
        // cardwallet-bench's driver for ez-vcard (issue 43): parse a vCard file with
        // Ezvcard.parse(File).all(), write every card back with Ezvcard.write(...).version(V3_0).
        // `dump` prints each card's fields as a JSON line, for the field-by-field comparison.
        import ezvcard.Ezvcard;
        import ezvcard.VCard;
        import ezvcard.VCardVersion;
        import ezvcard.property.*;
        import java.io.*;
        import java.lang.management.ManagementFactory;
        import java.nio.charset.StandardCharsets;
        import java.util.*;

        public class EzVCardRound {
            static double threadCPU() { return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() / 1e9; }
            static double processCPU() {
                return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                    .getProcessCpuTime() / 1e9;
            }

            static void round(File file, PrintStream out) throws IOException {
                System.gc();
                double wall0 = System.nanoTime() / 1e9, cpu0 = threadCPU(), process0 = processCPU();
                List<VCard> cards = Ezvcard.parse(file).all();
                double wall1 = System.nanoTime() / 1e9, cpu1 = threadCPU(), process1 = processCPU();
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                Ezvcard.write(cards).version(VCardVersion.V3_0).go(bytes);
                double wall2 = System.nanoTime() / 1e9, cpu2 = threadCPU(), process2 = processCPU();
                if (out != null) {
                    out.printf(Locale.ROOT,
                        "{\"cards\":%d,\"parse\":%.6f,\"export\":%.6f,\"parseCPU\":%.6f,\"exportCPU\":%.6f,"
                            + "\"parseProcessCPU\":%.6f,\"exportProcessCPU\":%.6f,\"bytes\":%d}%n",
                        cards.size(), wall1 - wall0, wall2 - wall1, cpu1 - cpu0, cpu2 - cpu1, process1 - process0,
                        process2 - process1, bytes.size());
                    out.flush();
                }
            }

            static String json(String text) {
                if (text == null) return "null";
                StringBuilder out = new StringBuilder("\"");
                for (char c : text.toCharArray()) {
                    if (c == '"' || c == '\\') out.append('\\').append(c);
                    else if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
                    else out.append(c);
                }
                return out.append('"').toString();
            }

            static String json(List<String> list) {
                StringJoiner out = new StringJoiner(",", "[", "]");
                for (String text : list) out.add(json(text));
                return out.toString();
            }

            static void dump(File file, PrintStream out) throws IOException {
                for (VCard card : Ezvcard.parse(file).all()) {
                    List<String> org = new ArrayList<>();
                    if (card.getOrganization() != null) org.addAll(card.getOrganization().getValues());
                    List<String> emails = new ArrayList<>();
                    for (Email email : card.getEmails()) emails.add(email.getValue());
                    List<String> phones = new ArrayList<>();
                    for (Telephone phone : card.getTelephoneNumbers()) {
                        phones.add(phone.getUri() != null ? phone.getUri().getNumber() : phone.getText());
                    }
                    List<String> notes = new ArrayList<>();
                    for (Note note : card.getNotes()) notes.add(note.getValue());
                    List<String> photos = new ArrayList<>();
                    for (Photo photo : card.getPhotos()) {
                        photos.add(photo.getData() != null ? Base64.getEncoder().encodeToString(photo.getData()) : "url:" + photo.getUrl());
                    }
                    String birthday = null;
                    if (card.getBirthday() != null && card.getBirthday().getDate() != null) {
                        birthday = new java.text.SimpleDateFormat("yyyy-MM-dd").format(card.getBirthday().getDate());
                    }
                    List<String> social = new ArrayList<>();
                    for (RawProperty raw : card.getExtendedProperties("X-SOCIALPROFILE")) social.add(raw.getValue());
                    out.println("{\"name\":" + json(card.getFormattedName() == null ? null : card.getFormattedName().getValue())
                        + ",\"org\":" + json(org) + ",\"emails\":" + json(emails) + ",\"phones\":" + json(phones)
                        + ",\"notes\":" + json(notes) + ",\"photos\":" + json(photos) + ",\"birthday\":" + json(birthday)
                        + ",\"social\":" + json(social) + "}");
                }
                out.println("end");
                out.flush();
            }

            public static void main(String[] args) throws Exception {
                if (args.length == 1 && args[0].equals("version")) {
                    System.out.println(Ezvcard.VERSION);
                    return;
                }
                PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
                File file = new File(args[1]);
                for (int i = 0; i < Integer.parseInt(args[2]); i++) round(file, null);
                out.println("ready");
                out.flush();
                BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
                for (String line; (line = in.readLine()) != null; ) {
                    if (line.equals("round")) round(file, out);
                    if (line.equals("dump")) dump(file, out);
                }
            }
        }
        """#
}

/// Programs on `PATH`, and a digest of a driver's text for its build's name.
enum Tools {
    static func find(_ name: String) -> String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// FNV-1a of `text`, in hex: a changed driver gets a new build.
    static func digest(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
