import FFmpeg
import Foundation
import JobEngine
import TaskContract
import Vips

/// What one chunk of a media job (export, compress) does, stored as the chunk's detail when the
/// job is planned. `item` is the asset's or input's position.
enum MediaChunk: Codable, Equatable, Sendable {
    /// Decode, edit and encode one image.
    case image(item: Int)
    /// Decode, edit and encode one keyframe-aligned range of a video's frames.
    case segment(item: Int, index: Int, start: Double, end: Double)
    /// Copy or re-encode a video's audio over its kept range.
    case audio(item: Int, start: Double, end: Double)
    /// An item that could not be read when the job was planned; running it tries again and
    /// reports why it fails.
    case unreadable(item: Int)

    var item: Int {
        switch self {
        case .image(let item), .segment(let item, _, _, _), .audio(let item, _, _), .unreadable(let item): item
        }
    }

    /// The chunks for item `item` at `path`: one for an image; for a video, its segments over
    /// `start..<end` (end: the video's end when `nil`) and its audio; one that will report the
    /// problem for a file neither library reads.
    static func plan(item: Int, path: String, start: Double, end: Double?, planner: SegmentPlanner,
                     limits: MediaLimits, imageLimits: ImageLimits) -> [MediaChunk] {
        switch try? AssetProbe.classify(path, limits: limits, imageLimits: imageLimits) {
        case .image:
            return [.image(item: item)]
        case .video(let info):
            let end = min(end ?? info.duration, info.duration)
            let segments = planner.segments(keyframes: info.keyframes, from: start, to: end).enumerated()
                .map { MediaChunk.segment(item: item, index: $0.offset, start: $0.element.start, end: $0.element.end) }
            return segments + (info.audio == nil ? [] : [.audio(item: item, start: start, end: end)])
        case nil:
            return [.unreadable(item: item)]
        }
    }

    var isImage: Bool { if case .image = self { true } else { false } }
    var isAudio: Bool { if case .audio = self { true } else { false } }

    /// The chunk as planned: a key naming its output, its stage, and this as its detail.
    func planned(output: String) throws -> PlannedChunk {
        let (key, stage): (String, Stage) = switch self {
        case .image: ("image-\(output)", .render)
        case .segment(_, let index, _, _): ("segment-\(output)-\(index)", .encode)
        case .audio: ("audio-\(output)", .encode)
        case .unreadable: ("unreadable-\(output)", .render)
        }
        return PlannedChunk(key: key, stage: stage, detail: try JSONEncoder().encode(self))
    }

    init(_ chunk: PlannedChunk) throws {
        self = try JSONDecoder().decode(MediaChunk.self, from: chunk.detail ?? Data())
    }
}
