import TaskContract

/// Why a submission was refused, with what the engine knows of it; its ``reason`` is what the
/// store keeps.
public enum Rejection: Sendable, Equatable {
    /// No kind is registered for the identifier.
    case unregisteredIdentifier(TaskIdentifier)
    /// The settings are not of the type the identifier's kind takes: a programming error in the
    /// submitting program.
    case wrongSettingsType(kind: String, expected: String, given: String)
    /// A required resource is not supported here; the probe's reason.
    case unsupportedResource(String)
    /// The kind refused the settings while planning; its message.
    case invalidInput(String)
    /// Something is at the destination and replacing it was not asked for.
    case destinationExists(path: String)
    /// Every slot is busy and the strategy was `.fail`. A refused resume or restart says what
    /// state the job stays in.
    case noCapacity(slots: Int, jobStays: JobState?)
    /// A job left to workers under `.fail`, and no live worker can run it (none at all, or, when
    /// the job requires a GPU, none that selected one).
    case noLiveWorker(requiresGPU: Bool)

    /// The bounded reason stored with the rejected job.
    public var reason: RejectionReason {
        switch self {
        case .unregisteredIdentifier: .unregisteredIdentifier
        case .unsupportedResource: .unsupportedResource
        case .invalidInput, .destinationExists, .wrongSettingsType: .invalidInput
        case .noCapacity, .noLiveWorker: .noCapacity
        }
    }

    /// What happened, in the engine's words.
    public var message: String {
        switch self {
        case .unregisteredIdentifier(let identifier): "no handler is registered for \(identifier)"
        case .wrongSettingsType(let kind, let expected, let given):
            "'\(kind)' jobs take settings of type \(expected), not \(given)"
        case .unsupportedResource(let reason): "the GPU is required but not usable: \(reason)"
        case .invalidInput(let message): message
        case .destinationExists(let path): "\(path) already exists"
        case .noCapacity(let slots, let stays):
            (slots == 1 ? "the only job slot is busy" : "all \(slots) job slots are busy") + (stays.map { "; the job stays \($0.rawValue)" } ?? "")
        case .noLiveWorker(let requiresGPU):
            requiresGPU ? "no live worker selected a GPU, and the job requires one" : "no live worker is taking chunks"
        }
    }
}
