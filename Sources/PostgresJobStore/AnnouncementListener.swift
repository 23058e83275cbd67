import Foundation
import JobEngine
import Postgres

/// Hears, on a connection of its own, what a ``PostgresJobStore`` announces (PostgreSQL's
/// `LISTEN`/`NOTIFY`) on its two channels, each carrying a job's id:
///
/// - cancels, on ``cancelChannel``: ``PostgresJobStore/requestCancel(_:)`` sends the job's id when
///   it commits, so a worker stops the job's chunks without waiting for its next heartbeat. A cancel
///   asked for while nobody listened is still seen: the flag stays in the store, and every lease
///   renewal reports it.
/// - new work, on ``workChannel``: a job stored or resumed, and a job whose last chunk was
///   committed (its package stage can be claimed), so that idle workers look for it at once rather
///   than at their next look. Work announced while nobody listened is found at that look.
///
/// One thread at a time waits on a listener.
public final class AnnouncementListener: @unchecked Sendable {
    /// The channel cancels are announced on; the payload is the job's id.
    public static let cancelChannel = "mediajob_cancel"
    /// The channel new work is announced on; the payload is the job's id.
    public static let workChannel = "mediajob_work"

    /// What was announced since the last call.
    public struct Announcements: Sendable, Equatable {
        /// The jobs whose cancel was asked for.
        public var cancels: Set<JobID> = []
        /// The jobs that have chunks to claim that they did not have before.
        public var work: Set<JobID> = []
    }

    // Used by one thread at a time, as the type's documentation asks.
    private let connection: Connection

    /// Connects and listens.
    /// - Parameters:
    ///   - connectionString: the store's libpq connection URL or `key=value` string.
    ///   - settings: run-time settings for the session, as the store takes them.
    /// - Throws: `PostgresError` when no connection can be made (never naming the password).
    public init(_ connectionString: String, settings: [String: String] = [:]) throws {
        connection = try Connection(connectionString, settings: ["application_name": "mediajob"].merging(settings) { $1 })
        try connection.listen(Self.cancelChannel)
        try connection.listen(Self.workChannel)
    }

    /// The jobs whose cancel was announced since the last call (other announcements are dropped),
    /// waiting for one until `deadline`; see ``announcements(until:)``.
    public func cancels(until deadline: ContinuousClock.Instant) throws -> Set<JobID> {
        try announcements(until: deadline).cancels
    }

    /// What was announced since the last call, waiting for something until `deadline`. A lost
    /// connection is remade (and listens again) once.
    /// - Returns: the announcements; empty when none came before `deadline`.
    /// - Throws: `PostgresError` when the connection is lost and cannot be remade.
    public func announcements(until deadline: ContinuousClock.Instant) throws -> Announcements {
        let notifications: [PostgresNotification]
        do {
            notifications = try connection.notifications(until: deadline)
        } catch let error as PostgresError where error.kind == .connectionLost {
            try connection.reset()
            notifications = try connection.notifications(until: deadline)
        }
        func jobs(on channel: String) -> Set<JobID> {
            Set(notifications.filter { $0.channel == channel }.map { JobID(rawValue: $0.payload) })
        }
        return Announcements(cancels: jobs(on: Self.cancelChannel), work: jobs(on: Self.workChannel))
    }
}
