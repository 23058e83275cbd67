/// Where a job may render: the `--gpu auto|on|off` choice, kept in the job's spec.
///
/// The rule for a job whose machine changes (resumed elsewhere, driver removed): each chunk
/// renders on the GPU when the process running it offers one (``MediaEnvironment/renderer``)
/// and the job's preference is not `off`, else on the CPU, and records which. Both paths give the same picture within the
/// tolerance the parity tests state, so a job whose chunks were rendered on different paths is
/// still valid and consistent; it is byte-identical to an uninterrupted run only when every
/// chunk took the same path. `on` is a requirement checked when the job is submitted.
public enum GPUPreference: String, Codable, Sendable, CaseIterable {
    /// The GPU when resource probing selected one, else the CPU.
    case auto
    /// The GPU; submission is rejected when there is none.
    case on
    /// Always the CPU.
    case off
}
