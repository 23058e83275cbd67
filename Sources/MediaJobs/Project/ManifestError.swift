import TaskContract

/// A `project.json` that cannot be used: names the file, the entry and the field, and says what
/// is expected.
public struct ManifestError: CategorizedError, Equatable, CustomStringConvertible {
    /// The manifest file.
    public var file: String
    /// Where in the manifest, for example `assets[2].edits.rotate`; empty for the whole file.
    public var field: String
    /// What is wrong and what is expected.
    public var problem: String

    public init(file: String, field: String, problem: String) {
        self.file = file
        self.field = field
        self.problem = problem
    }

    public var category: FailureCategory { .invalidInput }

    public var message: String {
        field.isEmpty ? "\(file): \(problem)" : "\(file): \(field): \(problem)"
    }

    public var description: String { message }
}
