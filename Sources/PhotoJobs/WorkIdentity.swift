import Foundation

/// What makes two submissions of a media job the same work (``JobKind/workIdentity(of:)``): the
/// input files as they are now (path, size, modification time), the settings that shape the
/// result, and the destination.
package struct WorkIdentity<Settings: Encodable>: Encodable {
    /// One input file as it is when the job is submitted.
    package struct Input: Encodable, Equatable {
        var path: String
        /// Bytes; −1 when the file cannot be read (planning then says why).
        var size: Int64
        /// Seconds since 1970, to the file system's precision; `nil` when unreadable.
        var modified: Double?

        init(path: String) {
            self.path = path
            let status = FileStatus(path: path)
            size = status?.size ?? -1
            modified = status?.modified
        }
    }

    package var inputs: [Input]
    package var settings: Settings
    package var destination: String

    package init(inputs: [String], settings: Settings, destination: String) {
        self.inputs = inputs.map(Input.init)
        self.settings = settings
        self.destination = destination
    }
}
