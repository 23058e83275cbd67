import Foundation
import Glibc
import Synchronization

/// An advisory `flock` on a file: held while a process owns a job, or while it admits jobs.
///
/// The kernel drops the lock when the process dies, however it dies, so a lock that can be taken
/// proves its last owner is gone. That is how a job whose process vanished is told apart from
/// one still running, across processes and without trusting clocks.
package final class JobLock: Sendable {
    private let descriptor: Mutex<Int32?>
    /// The lock file.
    package let url: URL

    private init(descriptor: Int32, url: URL) {
        self.descriptor = Mutex(descriptor)
        self.url = url
    }

    deinit {
        release()
    }

    /// Lets the lock go; later calls do nothing.
    package func release() {
        descriptor.withLock { descriptor in
            guard let fd = descriptor else { return }
            flock(fd, LOCK_UN)
            close(fd)
            descriptor = nil
        }
    }

    /// Takes the lock if nobody holds it.
    /// - Returns: the held lock, or `nil` when another owner (in any process) holds it.
    package static func tryAcquire(_ url: URL) throws -> JobLock? {
        let fd = try openLockFile(url)
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(fd)
            if code == EWOULDBLOCK { return nil }
            throw FileSystemError("flock", path: url.path, code: code)
        }
        return JobLock(descriptor: fd, url: url)
    }

    /// Waits for the lock, then takes it.
    package static func acquire(_ url: URL) throws -> JobLock {
        let fd = try openLockFile(url)
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let code = errno
                close(fd)
                throw FileSystemError("flock", path: url.path, code: code)
            }
        }
        return JobLock(descriptor: fd, url: url)
    }

    /// Whether some owner, in this process or another, holds the lock now.
    package static func isHeld(_ url: URL) throws -> Bool {
        guard DurableFiles.exists(url) else { return false }
        return try tryAcquire(url) == nil
    }

    private static func openLockFile(_ url: URL) throws -> Int32 {
        let fd = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileSystemError("open", path: url.path) }
        return fd
    }
}

/// The lock files of one state folder: one per job, and one for admission.
package struct LockDirectory: Sendable {
    /// The folder holding the lock files.
    package let directory: URL

    package init(directory: URL) throws {
        self.directory = directory
        try DurableFiles.makeDirectory(directory)
    }

    /// The lock file of job `id`.
    package func url(for id: JobID) -> URL {
        directory.appendingPathComponent("\(id.rawValue).lock")
    }

    /// The lock held while deciding which jobs may start, so that capacity is never overbooked.
    package var admission: URL {
        directory.appendingPathComponent("admission.lock")
    }

    /// Whether a live process owns job `id`.
    package func isOwned(_ id: JobID) throws -> Bool {
        try JobLock.isHeld(url(for: id))
    }

    /// Forgets the lock file of a finished job.
    package func removeLock(for id: JobID) {
        try? DurableFiles.remove(url(for: id))
    }
}
