/// Splits a video's time range into segments, each encoded on its own and joined later without
/// re-encoding, so that no segment is longer than ``maxSeconds``, and so that the last ones are
/// short: the job's chunks then end together on however many cores run them.
///
/// The plan depends on the range, the keyframes and ``maxSeconds`` only, never on the machine,
/// so one job's segments are the same wherever it is planned. A range within the limit is one
/// segment, and within two limits two, cut on the keyframe nearest the middle that keeps both
/// within the limit. A longer range is cut from the start: each segment takes an even share of
/// what is left within the limit while more than two limits are left, then half of what is left
/// (the segments halve toward the end), down to ``shortestShare`` of the limit: the last two are
/// between that and twice it. Each cut is made on the source keyframe nearest its place, within a
/// quarter of an even share or half of a halving one; where the source has no keyframe there (a
/// long GOP, or a tail segment shorter than the GOP), the cut is made between keyframes and the
/// segment's encoder decodes from the keyframe before it.
///
/// Run in order on any number of cores, or longest first, the short segments come last and fill
/// the gaps while the long ones finish: an equal split into an odd number of segments left one
/// core encoding the last one alone for a whole segment's time.
public struct SegmentPlanner: Sendable {
    /// The longest a segment may be, in seconds of video.
    public var maxSeconds: Double

    /// The shortest a segment is cut on purpose, as a share of ``maxSeconds``: the halving stops
    /// there. A range within the limit is one segment, however short.
    static let shortestShare = 1.0 / 8

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
        guard end - start > 2 * maxSeconds else {
            // Two segments, as before halving began: a short range gains nothing from more.
            let middle = next(after: start, share: (end - start) / 2, within: (end - start) / 4, keyframes: keyframes,
                              notBefore: end - maxSeconds, notAfter: end)
            return [(start, middle), (middle, end)]
        }
        let shortest = maxSeconds * Self.shortestShare
        var bounds = [start]
        while let cut = bounds.last, end - cut >= 2 * shortest {
            let left = end - cut
            // Even shares keep within a quarter of a share of their place, so that a GOP longer
            // than that does not make more segments; a halving share takes a keyframe within half.
            let (share, reach) = left >= 2 * maxSeconds ? (left / (left / maxSeconds).rounded(.up), 0.25) : (left / 2, 0.5)
            bounds.append(next(after: cut, share: share, within: share * reach, keyframes: keyframes,
                               notBefore: cut, notAfter: end - shortest))
        }
        bounds.append(end)
        return zip(bounds, bounds.dropFirst()).map { (start: $0, end: $1) }
    }

    /// The cut after `cut` for a segment of about `share` seconds: the keyframe nearest
    /// `cut + share` no further than `within` from it, no more than the limit after `cut`, and
    /// between `earliest` (exclusive) and `latest` (the earlier of two equally near); where there
    /// is none, `cut + share` itself.
    private func next(after cut: Double, share: Double, within: Double, keyframes: [Double],
                      notBefore earliest: Double, notAfter latest: Double) -> Double {
        let ideal = cut + share
        let highest = min(ideal + within, cut + maxSeconds, latest)
        let near = keyframes.lazy.filter { $0 > max(cut, earliest) && $0 >= ideal - within && $0 <= highest }
        return near.min { abs($0 - ideal) < abs($1 - ideal) } ?? ideal
    }
}
