import Foundation
import JobEngine
import TaskContract

/// How a ``JobRecord`` maps to a row of the `jobs` table.
enum JobRow {
    /// The columns ``record(_:)`` reads; the settings from `job_specs` where the schema keeps them
    /// apart (version 12 on).
    static func columns(specsApart: Bool) -> String {
        """
        id, kind, request, \(specsApart ? "(SELECT spec FROM job_specs WHERE job_id = jobs.id) AS spec" : "spec"), work_key,
        destination, workspace, overwrite, state, failure, rejection, message, progress, queue_seq, created_at, updated_at,
        owner_pid
        """
    }

    /// Reads a row selected with ``columns(specsApart:)``, by column name.
    /// - Throws: ``JobStoreError/unknownValue(column:value:job:)`` for a state, failure or
    ///   rejection this program does not know.
    static func record(_ row: SQLiteRow) throws -> JobRecord {
        let id = try row.text("id")
        var job = JobRecord(
            id: JobID(rawValue: id), kind: try row.text("kind"), request: try decode(TaskRequest.self, row.blob("request")), spec: try row.blob("spec"),
            workKey: try row.text("work_key"), destination: try row.text("destination"), workspace: try row.text("workspace"),
            overwrite: try row.integer("overwrite") != 0,
            state: try known(JobState.self, row.text("state"), column: "state", job: id),
            progress: try decode(ProgressSnapshot.self, row.blob("progress")),
            createdAt: Date(timeIntervalSince1970: try row.real("created_at")))
        job.failure = try row.optionalText("failure").map { try known(FailureCategory.self, $0, column: "failure", job: id) }
        job.rejection = try row.optionalText("rejection").map { try known(RejectionReason.self, $0, column: "rejection", job: id) }
        job.message = try row.optionalText("message")
        job.queueSequence = try row.integer("queue_seq")
        job.updatedAt = Date(timeIntervalSince1970: try row.real("updated_at"))
        job.ownerPID = try row.optionalInteger("owner_pid").map { Int32($0) }
        return job
    }

    /// The stored `value` of `column` as `Value`.
    /// - Throws: ``JobStoreError/unknownValue(column:value:job:)`` when this program does not know it.
    static func known<Value: RawRepresentable<String>>(_ type: Value.Type, _ value: String, column: String,
                                                       job: String) throws -> Value {
        guard let known = Value(rawValue: value) else { throw JobStoreError.unknownValue(column: column, value: value, job: job) }
        return known
    }

    /// The values for the `INSERT` in ``SQLiteJobStore/insert(_:chunks:)``, in its order.
    ///
    /// The `parallelism` column is no longer read (how many chunks run at once is the running
    /// process's choice, not the job's) and is written as 0: it is `NOT NULL` in every schema.
    /// With `specsApart` the `spec` column is written empty: the settings go to `job_specs`.
    static func values(for job: JobRecord, specsApart: Bool) throws -> [SQLiteValue] {
        [
            .text(job.id.rawValue), .text(job.request.identifier.rawValue), .text(job.kind),
            .blob(try encode(job.request)), .blob(specsApart ? Data() : job.spec), .text(job.workKey), .text(job.destination),
            .text(job.workspace), .integer(job.overwrite ? 1 : 0), .integer(0),
            .text(job.state.rawValue), .optional(job.failure?.rawValue), .optional(job.rejection?.rawValue),
            .optional(job.message), .blob(try encode(job.progress)), .integer(job.queueSequence),
            .real(job.createdAt.timeIntervalSince1970), .real(job.updatedAt.timeIntervalSince1970),
            job.ownerPID.map { .integer(Int64($0)) } ?? .null,
        ]
    }

    /// One encoder and one decoder for every row and checkpoint: making them anew for each was a
    /// measurable part of a checkpoint and of loading a long job's chunks.
    private static let encoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()
    private static let decoder = JSONDecoder()

    static func encode<T: Encodable>(_ value: T) throws -> Data {
        try encoder.encode(value)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T {
        try decoder.decode(type, from: data)
    }
}
