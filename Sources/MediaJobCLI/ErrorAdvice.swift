import JobEngine
import TaskContract

/// Turns the engine's reasons into sentences that say what to do with this program's commands
/// and options; the engine itself never names them.
package enum ErrorAdvice {
    /// The error's message with the next step a person at the terminal can take.
    /// - Parameter stateDirArgument: the `--state-dir …` words to repeat in a suggested command.
    package static func sentence(for error: any Error, stateDirArgument: String = "") -> String {
        if let error = error as? UnusableInputs { return leavingOut(error.message) }
        guard let error = error as? SchedulerError else { return error.personMessage }
        switch error {
        case .rejected(_, let rejection): return sentence(for: rejection)
        case .noSuchJob: return "\(error.message)\nList jobs with: mediajob jobs\(stateDirArgument)"
        case .ownedByAnotherProcess(let id, let pid):
            let command = pid == nil ? "mediajob status \(id.short)" : "mediajob status \(id.short) --watch"
            return "\(error.message)\n\(pid == nil ? "See where it stands" : "Watch it") with: \(command)\(stateDirArgument)"
        case .wrongState(let id, let state, _):
            // What the job's state allows instead, as `status` says it: cancelling a paused job
            // leads to resume or discard, resuming a running one to following it.
            guard let next = JobDescription.nextStep(id, state, stateDirArgument: stateDirArgument) else { return error.message }
            return "\(error.message)\nNext: \(next)"
        default: return error.message
        }
    }

    /// Unusable inputs' message with the option that leaves them out.
    private static func leavingOut(_ message: String) -> String {
        "\(message), or run the command again with --skip-bad to leave \(message.hasPrefix("1 input ") ? "it" : "them") out"
    }

    /// A rejection's message with the option that avoids it.
    package static func sentence(for rejection: Rejection) -> String {
        switch rejection {
        case .destinationExists: "\(rejection.message); choose another output or pass --overwrite"
        case .noCapacity: "\(rejection.message); try again later or use --strategy queue"
        case .noLiveWorker(let requiresGPU):
            "\(rejection.message); start one (mediajob worker\(requiresGPU ? " --gpu on" : "")) or use --strategy queue to wait for one"
        case .unsupportedResource: "\(rejection.message) (see `mediajob probe`; use --gpu auto or off)"
        case .invalidInput(let message) where UnusableInputs.describes(message): leavingOut(message)
        case .unregisteredIdentifier, .invalidInput, .wrongSettingsType: rejection.message
        }
    }
}
