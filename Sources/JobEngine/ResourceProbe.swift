import TaskContract

/// Tells the scheduler which resources this machine can honestly offer.
public protocol ResourceProbe: Sendable {
    /// The resources a request may require here. `.gpu` only when a working GPU was found.
    func supportedResources() -> TaskResources
    /// Why a resource is not supported, in words for the person (`nil` when it is).
    func unsupportedReason(for resource: TaskResources) -> String?
}

/// A probe that offers a fixed set of resources: for machines without a GPU, and for tests.
public struct FixedResourceProbe: ResourceProbe {
    public var resources: TaskResources
    public var reason: String

    public init(_ resources: TaskResources = [], reason: String = "no GPU was found") {
        self.resources = resources
        self.reason = reason
    }

    public func supportedResources() -> TaskResources { resources }

    public func unsupportedReason(for resource: TaskResources) -> String? {
        resources.isSuperset(of: resource) ? nil : reason
    }
}
