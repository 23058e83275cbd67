import TaskContract

/// Thrown by a chunk whose item is bad (a corrupt photo, a missing file): the other chunks go
/// on, the chunk is not recorded done, and the job ends failed, listing every bad item; resume
/// tries those items again.
public struct ItemFailure: CategorizedError, Equatable {
    /// The item, in the person's words (for example `assets[2] (beach.jpg)`).
    public var item: String
    /// What is wrong with it and what to do.
    public var reason: String
    /// Whether the item's input could not be opened on this machine (missing or unreadable here):
    /// a worker on another machine, which may see the shared path, can try the chunk again.
    public var isUnreachableHere: Bool

    /// - Parameter isUnreachableHere: whether the input could not be opened on this machine
    ///   (``ItemFailure/requireReadable(_:item:)``), rather than being bad in itself.
    public init(item: String, reason: String, isUnreachableHere: Bool = false) {
        self.item = item
        self.reason = reason
        self.isUnreachableHere = isUnreachableHere
    }

    public var category: FailureCategory { .invalidInput }
    public var message: String { "\(item): \(reason)" }

    /// ``message`` without a closing full stop, to be joined with others in one sentence.
    package var clause: String { message.hasSuffix(".") ? String(message.dropLast()) : message }
}

/// Some items were bad: those of one chunk, or, when the job's chunks all ran, the job's.
public struct ItemFailures: CategorizedError, Equatable {
    public var failures: [ItemFailure]

    /// Thrown by a chunk that holds several items, some of them bad: each is stored as failed with
    /// the chunk, and the chunk's other items go on.
    public init(failures: [ItemFailure]) {
        self.failures = failures
    }

    public var category: FailureCategory { .invalidInput }

    public var message: String {
        return "\(Plural.of(failures.count, "item")) could not be processed: " + failures.map(\.clause).joined(separator: "; ")
            + ". The rest is kept; fix them, then resume, or change what the job was given, then restart"
    }
}
