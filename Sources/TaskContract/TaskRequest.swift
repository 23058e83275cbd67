/// What a person asked for: the work's identifier, the words shown while it runs, what to do
/// when no capacity is free, and the resources it cannot do without.
///
/// Mirrors `BGContinuedProcessingTaskRequest`.
public struct TaskRequest: Sendable, Codable, Equatable {
    /// The task's identifier, admitted by the permitted identifier its kind is registered under; never a wildcard.
    public let identifier: TaskIdentifier
    /// States the result, for example "Exporting Holiday".
    public var title: String
    /// The current stage in at most ``TaskSubtitle/maximumLength`` characters.
    public var subtitle: TaskSubtitle
    /// What submission does when no capacity is free.
    public var strategy: SubmissionStrategy
    /// Resources the work requires. Require `.gpu` only when the scheduler's supported
    /// resources contain it, or submission is rejected.
    public var requiredResources: TaskResources

    /// Creates a request.
    /// - Throws: ``TaskContractError/wildcardIdentifier(_:)`` when `identifier` ends in `.*`.
    public init(
        identifier: TaskIdentifier,
        title: String,
        subtitle: TaskSubtitle,
        strategy: SubmissionStrategy = .queue,
        requiredResources: TaskResources = []
    ) throws {
        guard !identifier.isWildcard else { throw TaskContractError.wildcardIdentifier(identifier.rawValue) }
        self.identifier = identifier
        self.title = title
        self.subtitle = subtitle
        self.strategy = strategy
        self.requiredResources = requiredResources
    }
}

extension TaskRequest {
    private enum CodingKeys: String, CodingKey {
        case identifier, title, subtitle, strategy, requiredResources
    }

    /// Decodes a request, with the same checks as ``init(identifier:title:subtitle:strategy:requiredResources:)``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            identifier: try container.decode(TaskIdentifier.self, forKey: .identifier),
            title: try container.decode(String.self, forKey: .title),
            subtitle: try container.decode(TaskSubtitle.self, forKey: .subtitle),
            strategy: try container.decode(SubmissionStrategy.self, forKey: .strategy),
            requiredResources: try container.decode(TaskResources.self, forKey: .requiredResources))
    }
}

/// What happens to a submission that finds no free capacity.
public enum SubmissionStrategy: String, Sendable, Codable, CaseIterable {
    /// Wait in first-in, first-out order and start as soon as capacity frees.
    case queue
    /// Reject at once.
    case fail
}

/// Resources a task may require, as in `BGContinuedProcessingTaskRequest.Resources`.
public struct TaskResources: OptionSet, Sendable, Codable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// A working GPU, as reported by resource probing.
    public static let gpu = TaskResources(rawValue: 1 << 0)
}
