import Foundation
import JobEngine
import Postgres
import TaskContract

/// How a ``JobRecord`` maps to a row of the `jobs` table, and the JSON the store keeps in `bytea`
/// and `text` columns.
enum PostgresJobRow {
    /// The columns ``record(_:)`` reads, selected `FROM jobs`. The job's progress is the furthest
    /// of its own and of those its chunks' commits left in `job_progress`
    /// (``PostgresJobStore/progressShards``), and it was updated when the later of them was.
    static let columns = """
        id, kind, request, spec, work_key, destination, workspace, overwrite, state, failure, rejection, message,
        \(progress) AS progress, queue_seq, created_at,
        GREATEST(updated_at, (SELECT max(p.updated_at) FROM job_progress p WHERE p.job_id = jobs.id)) AS updated_at,
        owner_pid
        """

    /// The job's progress, selected `FROM jobs`: the furthest of its own and of those its chunks'
    /// commits left in `job_progress`.
    static let progress = """
        COALESCE((SELECT p.progress FROM job_progress p
                  WHERE p.job_id = jobs.id AND p.fraction >= \(fraction(of: "jobs.progress"))
                  ORDER BY p.fraction DESC, p.updated_at DESC LIMIT 1), jobs.progress)
        """

    /// The bar's fraction of the progress stored in `column` (JSON in `bytea`), -1 when it has none.
    static func fraction(of column: String) -> String {
        "COALESCE((convert_from(\(column), 'UTF8')::jsonb #>> '{bar,fraction}')::float8, -1)"
    }

    /// Reads a row selected with ``columns``, by column name.
    /// - Throws: ``JobStoreError`` for a state, failure or rejection this program does not know,
    ///   ``PostgresStoreError`` for JSON it cannot read; `PostgresError` for a missing or mistyped column.
    static func record(_ row: Row) throws -> JobRecord {
        let id: String = try row["id"]
        var job = JobRecord(
            id: JobID(rawValue: id), kind: try row["kind"], request: try decode(TaskRequest.self, row["request"], column: "request", job: id),
            spec: try row["spec"], workKey: try row["work_key"], destination: try row["destination"],
            workspace: try row["workspace"], overwrite: try row["overwrite"],
            state: try known(JobState.self, row["state"], column: "state", job: id),
            progress: try decode(ProgressSnapshot.self, row["progress"], column: "progress", job: id),
            createdAt: Date(timeIntervalSince1970: try row["created_at"]))
        job.failure = try (row["failure"] as String?).map { try known(FailureCategory.self, $0, column: "failure", job: id) }
        job.rejection = try (row["rejection"] as String?).map { try known(RejectionReason.self, $0, column: "rejection", job: id) }
        job.message = try row["message"]
        job.queueSequence = try row["queue_seq"]
        job.updatedAt = Date(timeIntervalSince1970: try row["updated_at"])
        job.ownerPID = try (row["owner_pid"] as Int?).map { Int32($0) }
        return job
    }

    /// The stored `value` of `column` as `Value`.
    /// - Throws: ``JobStoreError/unknownValue(column:value:job:)`` when this program does not know it.
    static func known<Value: RawRepresentable<String>>(_ type: Value.Type, _ value: String, column: String,
                                                       job: String) throws -> Value {
        guard let known = Value(rawValue: value) else {
            throw JobStoreError.unknownValue(column: column, value: value, job: job)
        }
        return known
    }

    /// `value` as JSON with sorted keys, as every stored JSON value is written.
    static func encode<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(value)
    }

    /// Reads stored JSON.
    /// - Throws: ``PostgresStoreError/unreadableValue(column:job:reason:)`` naming the column and job.
    static func decode<T: Decodable>(_ type: T.Type, _ data: Data, column: String, job: String) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw PostgresStoreError.unreadableValue(column: column, job: job, reason: String(describing: error))
        }
    }
}
