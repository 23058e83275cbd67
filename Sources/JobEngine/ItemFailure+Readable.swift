import Glibc

extension ItemFailure {
    /// Checks that this machine can open the input at `path` for reading, before a chunk decodes it.
    ///
    /// Inputs lie on storage every worker shares (DESIGN.md §10); a worker whose mount lacks the
    /// file, or whose user may not read it, fails here with an ``ItemFailure`` that says so
    /// (``isUnreachableHere``), and a worker on another machine may try the chunk again.
    /// - Parameters:
    ///   - path: the input's path.
    ///   - item: the item, in the person's words.
    /// - Throws: ``ItemFailure`` naming `item` and `path`, marked ``isUnreachableHere``.
    public static func requireReadable(_ path: String, item: String) throws {
        guard access(path, R_OK) != 0 else { return }
        let reason = String(cString: strerror(errno))
        throw ItemFailure(item: item, reason: "\(path) cannot be read here (\(reason)); check that it exists and is readable",
                          isUnreachableHere: true)
    }
}
