import Dispatch
import Synchronization

/// Checks over many files that nothing else waits beside: run on every core at once.
public enum Concurrently {
    /// Whether `holds` is true for every index in `0..<count`, asked on every core at once; no
    /// index is asked once one is found false. `holds` must be safe to call from any thread.
    public static func allSatisfy(_ count: Int, _ holds: @Sendable (Int) -> Bool) -> Bool {
        let foundFalse = Atomic(false)
        DispatchQueue.concurrentPerform(iterations: count) { index in
            guard !foundFalse.load(ordering: .relaxed) else { return }
            if !holds(index) { foundFalse.store(true, ordering: .relaxed) }
        }
        return !foundFalse.load(ordering: .relaxed)
    }
}
