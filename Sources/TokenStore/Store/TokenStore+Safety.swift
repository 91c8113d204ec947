extension TokenStore {
    /// Checks, without reading any token, that this store can be used safely: its folder (if
    /// it exists) is yours and nobody else can write to it, and the token file and its lock
    /// file (if they exist) are regular files of yours that nobody else can read or write.
    ///
    /// A missing folder or file passes: they are created private on the first change. A corrupt
    /// file passes too, as only its contents are wrong and a login may replace it.
    ///
    /// Call it before asking a server for tokens (a login), so that nothing is sent when the
    /// tokens could not be kept: every other operation would refuse the same folder or file.
    ///
    /// - Throws: the ``TokenStoreError`` that every operation would throw for this folder or
    ///   file (``TokenStoreError/fileTooOpen(path:mode:)``, ``TokenStoreError/fileNotOwned(path:mode:owner:user:)``,
    ///   ``TokenStoreError/notARegularFile(path:kind:)``, ``TokenStoreError/unsafeFolder(path:mode:owner:user:)``…).
    public func checkSafety() throws(TokenStoreError) {
        guard try FileSafety.checkFolder(folderPath, user: user) else { return }
        for file in [path, lockPath] {
            if let status = try POSIX.status(atPath: file, followLinks: false) {
                try FileSafety.checkPrivateFile(status, path: file, user: user)
            }
        }
    }
}
