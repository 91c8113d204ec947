/// Where the cache databases live: `$XDG_CACHE_HOME/cardwallet/` (or `~/.cache/cardwallet/`),
/// one file per server and account.
///
/// The folder is created `0700` and every file in it `0600`, whatever the umask (the cards of
/// a wallet are personal data; the files never hold a token or a password).
public struct CacheLocation: Sendable, Hashable {
    /// The folder's name inside the XDG cache home.
    public static let applicationFolderName = "cardwallet"

    /// The folder's absolute path.
    public let folder: String

    /// A cache folder at an explicit absolute path (tests, benchmarks).
    public init(folder: String) {
        self.folder = folder.count > 1 && folder.hasSuffix("/") ? String(folder.dropLast()) : folder
    }

    /// The default folder for `environment`: `$XDG_CACHE_HOME/cardwallet`, or
    /// `$HOME/.cache/cardwallet` when `XDG_CACHE_HOME` is unset, empty or relative (the XDG
    /// specification says relative paths are to be ignored).
    ///
    /// - Throws: ``CacheError`` when neither variable is an absolute path.
    public init(environment: [String: String]) throws(CacheError) {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            self.init(folder: Self.join(cache, Self.applicationFolderName))
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            self.init(folder: Self.join(Self.join(home, ".cache"), Self.applicationFolderName))
        } else {
            throw .noLocation
        }
    }

    /// The database of `account` at `server`: `wallet-<16 hex digits>.sqlite`, the digits a
    /// hash of both (so the name says nothing about the account; the file itself records both
    /// and a file that names another server or account is moved aside).
    ///
    /// - Parameters:
    ///   - server: the server's base URL as the client keys it (`CardAPIConfiguration.serverKey`).
    ///   - account: the account (its email), compared without regard to case.
    public func databasePath(server: String, account: String) -> String {
        Self.join(folder, "wallet-\(Self.key(server: server, account: account)).sqlite")
    }

    /// A stable 64-bit FNV-1a hash of the server and the account, as 16 hex digits. Not a
    /// secret and not a security boundary: it only spreads accounts over file names.
    static func key(server: String, account: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in Array(server.utf8) + [0] + Array(account.lowercased().utf8) {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
