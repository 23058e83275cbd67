/// Splits a video's time range into segments, each encoded on its own and joined later without
/// re-encoding, so that no segment is longer than ``maxSeconds``.
///
/// The plan depends on the range, the keyframes and ``maxSeconds`` only, never on the machine,
/// so one job's segments are the same wherever it is planned. The range is split as evenly as the
/// limit allows (a remainder never becomes a sliver), each cut on the source keyframe nearest its
/// ideal place within the limit; where the source has no keyframe there (a long GOP), the cut is
/// made between keyframes and the segment's encoder decodes from the keyframe before it.
public struct SegmentPlanner: Sendable {
    /// The longest a segment may be, in seconds of video.
    public var maxSeconds: Double

    /// - Parameter maxSeconds: the longest segment; anything but a positive, finite number means
    ///   one segment for the whole range.
    public init(maxSeconds: Double) {
        self.maxSeconds = maxSeconds.isFinite && maxSeconds > 0 ? maxSeconds : .infinity
    }

    /// The segments of `start..<end`, as (start, end) pairs in seconds, in order and without gaps.
    /// - Parameters:
    ///   - keyframes: presentation times of the video's keyframes, ascending.
    ///   - start: where the kept range starts (need not be a keyframe).
    ///   - end: where it ends.
    public func segments(keyframes: [Double], from start: Double, to end: Double) -> [(start: Double, end: Double)] {
        guard end > start else { return [] }
        guard end - start > maxSeconds else { return [(start, end)] }
        let fewest = Int(((end - start) / maxSeconds).rounded(.up))
        // One or two more segments leave more room to find keyframes within the limit.
        let bounds = (fewest...fewest + 2).lazy.compactMap { cuts($0, keyframes, start, end, keyframesOnly: true) }.first
            ?? cuts(fewest, keyframes, start, end, keyframesOnly: false) ?? [start, end]
        return zip(bounds, bounds.dropFirst()).map { (start: $0, end: $1) }
    }

    /// The bounds of `count` segments of `start..<end`, each cut on the keyframe nearest its
    /// even share of the range, within the limit and leaving the rest within it too; where no
    /// keyframe is there, `nil` if `keyframesOnly`, else a cut at the even share.
    private func cuts(_ count: Int, _ keyframes: [Double], _ start: Double, _ end: Double, keyframesOnly: Bool) -> [Double]? {
        var bounds = [start]
        for index in 1..<count {
            let cut = bounds[bounds.count - 1]
            let ideal = start + (end - start) * Double(index) / Double(count)
            let feasible = end - maxSeconds * Double(count - index)
            let highest = min(cut + maxSeconds, end)
            // A keyframe is taken no nearer the last cut than half the even share.
            let lowest = max(feasible, cut + (ideal - cut) / 2)
            if let keyframe = keyframes.filter({ $0 >= lowest && $0 <= highest && $0 > cut && $0 < end })
                .min(by: { abs($0 - ideal) < abs($1 - ideal) }) {
                bounds.append(keyframe)
            } else if keyframesOnly {
                return nil
            } else {
                bounds.append(min(max(ideal, feasible, cut), highest))
            }
        }
        bounds.append(end)
        return bounds
    }
}
