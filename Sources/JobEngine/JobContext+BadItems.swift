import TaskContract

extension JobContext {
    /// Runs one item's work, turning a bad item into an item outcome.
    ///
    /// An error of category ``FailureCategory/invalidInput`` (a corrupt photo, a missing file)
    /// fails as an ``ItemFailure`` naming `item`, so that the job's other chunks go on; with
    /// `skipBad`, the item is skipped instead (see ``skip(_:)``). Any error while a stop is asked
    /// for is the stop (``JobStopped``).
    /// - Parameters:
    ///   - item: the item, in the person's words; ``skipReason(of:)`` finds it by these words.
    ///   - skipBad: whether a bad item is skipped rather than failed.
    /// - Returns: whether the item was skipped.
    @discardableResult
    public func guarding(_ item: String, skipBad: Bool, _ work: () throws -> Void) throws -> Bool {
        do {
            try work()
            return false
        } catch where isStopRequested {
            throw JobStopped()
        } catch let error as any CategorizedError where error.category == .invalidInput {
            let failure = (error as? ItemFailure).map {
                $0.item == item ? $0 : ItemFailure(item: item, reason: $0.message, isUnreachableHere: $0.isUnreachableHere)
            } ?? ItemFailure(item: item, reason: error.message)
            // An input only this machine cannot open is another worker's to try, skipped or not.
            guard skipBad, !(failure.isUnreachableHere && leavesUnreachableInputsToOthers) else { throw failure }
            skip(failure)
            return true
        }
    }

    /// Why `item` was skipped (``ItemFailure/message``: the item and the reason), or `nil` when it
    /// was not.
    public func skipReason(of item: String) -> String? {
        skippedItems.last { $0.item == item }?.message
    }
}
