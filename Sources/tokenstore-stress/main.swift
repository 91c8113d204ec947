// tokenstore-stress: the child process of TokenStoreTests' multi-process tests.
//
// Each command drives the public TokenStore API the way a cardwallet process would, so the
// tests can run many of them at once, or kill them at random moments. Not a user tool.
//
//   write-loop PATH MARKER      save the item "target" alternating generations A and B until
//                               killed, creating MARKER after the first save
//   save-accounts PATH NAME N   save N items for accounts NAME-0 … NAME-(N-1)
//   increment PATH N            N times: under the lock, read the counter item and add 1
//   refresh PATH READY_DIR      touch READY_DIR/<pid>, then under the lock refresh the item
//                               "target" if its access token expired; print refreshed/reused
//   hold-lock PATH MARKER       take the lock, create MARKER, hold the lock until killed
//   umask-save UMASK PATH       set the umask, save an item, open the state folder's log file
//   items-as UID PATH           (root only) become user UID, read the store, print the error or
//                               `read N item(s)`
//
// Every command exits on its own after a minute at most, or as soon as its parent is gone,
// so a crashed test run leaves nothing behind.

import Foundation
import TokenStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else { usage() }
let parent = getppid()
let started = ContinuousClock.now

do {
    switch (command, arguments.count) {
    case ("write-loop", 3):
        try await writeLoop(store: TokenStore(path: arguments[1]), marker: arguments[2])
    case ("save-accounts", 4):
        let store = TokenStore(path: arguments[1], lockTimeout: .seconds(120))
        for index in 0..<(Int(arguments[3]) ?? 0) {
            try await store.save(StressItems.item(account: "\(arguments[2])-\(index)", generation: "\(index)"))
        }
    case ("increment", 3):
        let store = TokenStore(path: arguments[1], lockTimeout: .seconds(120))
        for _ in 0..<(Int(arguments[2]) ?? 0) {
            try await increment(store)
        }
    case ("refresh", 3):
        try await refresh(store: TokenStore(path: arguments[1], lockTimeout: .seconds(120)), readyFolder: arguments[2])
    case ("hold-lock", 3):
        try await TokenStore(path: arguments[1]).withExclusiveAccess { _ in
            _ = FileManager.default.createFile(atPath: arguments[2], contents: Data())
            while true { try await pauseUnlessOrphaned() }
        }
    case ("umask-save", 3):
        guard let mask = UInt32(arguments[1], radix: 8) else { usage() }
        umask(mode_t(mask))
        let store = TokenStore(path: arguments[2])
        try await store.save(StressItems.item(account: "umask", generation: "1"))
        _ = try StateDirectory(path: store.folderPath).openPrivateFile(named: "cardwallet.log")
    case ("items-as", 3):
        guard let user = UInt32(arguments[1]) else { usage() }
        guard setgroups(0, nil) == 0, setgid(user) == 0, setuid(user) == 0 else {
            FileHandle.standardError.write(Data("tokenstore-stress items-as: cannot become uid \(user)\n".utf8))
            exit(1)
        }
        do {
            print("read \(try TokenStore(path: arguments[2]).items().count) item(s)")
        } catch {
            print(error)
        }
    default:
        usage()
    }
} catch {
    FileHandle.standardError.write(Data("tokenstore-stress \(command): \(error)\n".utf8))
    exit(1)
}

/// Saves the target item, alternating generations A and B, until killed.
func writeLoop(store: TokenStore, marker: String) async throws -> Never {
    var generation = "B"
    while true {
        try await store.save(StressItems.item(account: StressItems.targetAccount, generation: generation))
        if !FileManager.default.fileExists(atPath: marker) {
            _ = FileManager.default.createFile(atPath: marker, contents: Data())
        }
        generation = generation == "A" ? "B" : "A"
        try checkOrphaned()
    }
}

/// One locked read-modify-write of the counter kept in the "counter" item's access token.
func increment(_ store: TokenStore) async throws {
    try await store.withExclusiveAccess { file in
        let current = try file.read(server: StressItems.server, account: "counter")
        let value = current.flatMap { Int($0.accessToken) } ?? 0
        // Let other tasks and processes run while the lock is held: their wait must not matter.
        await Task.yield()
        try file.save(StressItems.item(account: "counter", generation: "\(value + 1)", accessToken: "\(value + 1)"))
    }
}

/// The cross-process refresh rule the session uses: only refresh if still expired under the lock.
func refresh(store: TokenStore, readyFolder: String) async throws {
    let before = try store.read(server: StressItems.server, account: StressItems.targetAccount)
    _ = FileManager.default.createFile(atPath: readyFolder + "/\(getpid())", contents: Data())
    let outcome = try await store.withExclusiveAccess { file in
        guard let current = try file.read(server: StressItems.server, account: StressItems.targetAccount),
            current.accessTokenExpiresAt <= Date()
        else { return "reused" }
        // "Call the server": the lock is held across this suspension.
        await Task.yield()
        try file.save(
            StressItems.item(
                account: StressItems.targetAccount, generation: "refreshed-by-\(getpid())",
                accessExpiry: Date().addingTimeInterval(3600)))
        return "refreshed"
    }
    let after = try store.read(server: StressItems.server, account: StressItems.targetAccount)
    let changed = before?.refreshToken != after?.refreshToken
    print("\(outcome) \(changed ? "new-pair" : "old-pair")")
}

/// A short pause for the commands that idle, ending the process once its parent is gone.
func pauseUnlessOrphaned() async throws {
    try checkOrphaned()
    try await Task.sleep(for: .milliseconds(20))
}

func checkOrphaned() throws {
    if getppid() != parent || ContinuousClock.now - started > .seconds(60) { exit(3) }
}

func usage() -> Never {
    FileHandle.standardError.write(Data("usage: see Sources/tokenstore-stress/main.swift\n".utf8))
    exit(2)
}
