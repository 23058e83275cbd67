import JobEngine

extension ExportJob {
    /// The position of the asset `chunk` works on, in the manifest it was planned from; `nil` for
    /// a chunk that is not an export's.
    public static func asset(of chunk: PlannedChunk) -> Int? {
        try? MediaChunk(chunk).item
    }
}
