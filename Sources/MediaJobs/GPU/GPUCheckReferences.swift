import FFmpeg
import Foundation
import GPURender
import PhotoJobs
import Vips

/// Prepares the folder the `gpu-check` program reads (`Scripts/gpu-check`): reference inputs,
/// the CPU path's outputs for them, and the CPU path's figures on this machine.
///
/// Photos are two of the sample project's, edited by the CPU path (libvips). Video pictures are
/// `testsrc2` frames made by the `ffmpeg` tool as raw YUV 4:2:0, edited by the CPU path (swscale,
/// BT.709 limited range); for a colour change the GPU takes RGB, converted here by the `ffmpeg`
/// tool as the CPU path converts (bicubic chroma, accurate rounding).
package enum GPUCheckReferences {
    /// Writes the references and `manifest.json` into `folder`.
    /// - Parameter sample: the sample project's folder.
    /// - Throws: what decoding, editing, the `ffmpeg` tool or writing throws.
    package static func write(to folder: URL, sample: URL) throws {
        try MediaLibraries.initialize()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var photos: [GPUCheckManifest.Photo] = []
        let photoEdits: [(String, String, ProjectManifest.Edits)] = [
            ("small-640x480.jpg", "photo crop, turn, resize and colour", edits {
                $0.crop = .init(x: 33, y: 17, width: 501, height: 399)
                $0.rotate = 90
                $0.maxWidth = 240
                $0.exposure = 0.3
                $0.contrast = 1.1
                $0.saturation = 1.3
            }),
            ("portrait-1200x1800.jpg", "photo reduced 7.5× (box shrink then Lanczos3)", edits { $0.maxHeight = 240 }),
        ]
        for (index, (file, name, edits)) in photoEdits.enumerated() {
            let source = try VipsImage.load(sample.appendingPathComponent(file).path).toSRGB8()
            let input = "photo-\(index).raw", reference = "photo-\(index).cpu.raw"
            try source.pixels().data.write(to: folder.appendingPathComponent(input))
            try MediaSettings.apply(edits, to: source).pixels().data.write(to: folder.appendingPathComponent(reference))
            photos.append(.init(name: name, recipe: try GPUPhotoEdits.recipe(edits, for: source), input: input, reference: reference))
        }

        let (width, height, count) = (640, 360, 4)
        let frames = folder.appendingPathComponent("video.yuv")
        try ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height):rate=25", "-frames:v", "\(count)",
                    "-pix_fmt", "yuv420p", "-f", "rawvideo", frames.path])
        let pictures = try Data(contentsOf: frames)
        var videos: [GPUCheckManifest.Video] = []
        let videoEdits: [(String, VideoEdit)] = [
            ("video resize", VideoEdit(maxHeight: 240)),
            ("video crop, turn and resize at odd offsets", VideoEdit(crop: .init(x: 11, y: 7, width: 581, height: 333),
                                                                     quarterTurns: 3, maxHeight: 300)),
            ("video resize and colour", VideoEdit(maxHeight: 240, exposure: 0.2, saturation: 1.2)),
        ]
        for (index, (name, edit)) in videoEdits.enumerated() {
            let edited = try RawPictureEditing.edit(pictures, width: width, height: height, count: count, edit: edit)
            let reference = "video-\(index).cpu.yuv"
            try edited.planes.write(to: folder.appendingPathComponent(reference))
            let (recipe, _) = GPUPictureRenderer.render(edited.plan)
            videos.append(.init(name: name, recipe: recipe, lumaRed: edited.plan.lumaRed, lumaBlue: edited.plan.lumaBlue,
                                fullRange: edited.plan.fullRange, count: count, input: "video.yuv", reference: reference,
                                tolerance: edited.plan.changesColour ? ParityTolerance.videoColour : ParityTolerance.video))
        }

        let cpu = try RenderBenchmark.run(gpu: nil).cpu
        let manifest = GPUCheckManifest(photos: photos, videos: videos, photoTolerance: ParityTolerance.photo, cpu: .init(
            photoMegapixelsPerSecond: cpu.photoMegapixelsPerSecond, framesPerSecond: cpu.framesPerSecond, machine: machine()))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(manifest).write(to: folder.appendingPathComponent("manifest.json"))
    }

    private static func edits(_ change: (inout ProjectManifest.Edits) -> Void) -> ProjectManifest.Edits {
        var edits = ProjectManifest.Edits()
        change(&edits)
        return edits
    }

    /// Runs the `ffmpeg` tool, failing with its error output.
    private static func ffmpeg(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-v", "error", "-y"] + arguments
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let output = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey:
                "ffmpeg \(arguments.joined(separator: " ")) failed: \(String(decoding: output, as: UTF8.self))"])
        }
    }

    /// This machine in a few words: its processor model and the CPUs this process may use.
    private static func machine() -> String {
        let info = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = info.split(separator: "\n").first { $0.hasPrefix("model name") }?.split(separator: ":").last?
            .trimmingCharacters(in: .whitespaces) ?? "unknown processor"
        return "\(model), \(ProcessInfo.processInfo.activeProcessorCount) CPUs"
    }
}
