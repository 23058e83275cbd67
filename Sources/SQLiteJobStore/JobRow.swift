import Foundation
import JobEngine
import TaskContract

/// How a ``JobRecord`` maps to a row of the `jobs` table.
enum JobRow {
    static let columns = """
        id, request, spec, work_key, destination, workspace, overwrite, parallelism, state, failure, rejection,
        message, progress, queue_seq, created_at, updated_at, owner_pid
        """

    /// Reads a row selected with ``columns``.
    static func record(_ row: SQLiteRow) throws -> JobRecord {
        var job = JobRecord(
            id: JobID(rawValue: row.text(0)), request: try decode(TaskRequest.self, row.blob(1)), spec: row.blob(2),
            workKey: row.text(3), destination: row.text(4), workspace: row.text(5), overwrite: row.integer(6) != 0,
            parallelism: Int(row.integer(7)), state: JobState(rawValue: row.text(8)) ?? .failed,
            progress: try decode(ProgressSnapshot.self, row.blob(12)), createdAt: Date(timeIntervalSince1970: row.real(14)))
        job.failure = row.optionalText(9).flatMap(FailureCategory.init(rawValue:))
        job.rejection = row.optionalText(10).flatMap(RejectionReason.init(rawValue:))
        job.message = row.optionalText(11)
        job.queueSequence = row.integer(13)
        job.updatedAt = Date(timeIntervalSince1970: row.real(15))
        job.ownerPID = row.isNull(16) ? nil : Int32(row.integer(16))
        return job
    }

    /// The values for the `INSERT` in ``SQLiteJobStore/insert(_:chunks:)``, in its order.
    static func values(for job: JobRecord) throws -> [SQLiteValue] {
        [
            .text(job.id.rawValue), .text(job.request.identifier.rawValue), .text(job.kind),
            .blob(try encode(job.request)), .blob(job.spec), .text(job.workKey), .text(job.destination),
            .text(job.workspace), .integer(job.overwrite ? 1 : 0), .integer(Int64(job.parallelism)),
            .text(job.state.rawValue), .optional(job.failure?.rawValue), .optional(job.rejection?.rawValue),
            .optional(job.message), .blob(try encode(job.progress)), .integer(job.queueSequence),
            .real(job.createdAt.timeIntervalSince1970), .real(job.updatedAt.timeIntervalSince1970),
            job.ownerPID.map { .integer(Int64($0)) } ?? .null,
        ]
    }

    static func encode<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(value)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T {
        try JSONDecoder().decode(type, from: data)
    }
}
