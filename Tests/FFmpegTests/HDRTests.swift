import EngineTestKit
import FFmpeg
import Foundation
import MediaTestKit
import Testing

/// HDR sources (PQ, HLG) are tone-mapped to SDR BT.709 by default, as the `ffmpeg` tool running
/// the same operator makes them, or kept as 10-bit HDR with their metadata in HEVC and AV1.
@Suite struct HDRTests {
    let fixtures = Fixtures.shared
    static let lossless = VideoEncoding(codec: "libx264", crf: 0, preset: "ultrafast", threads: 1)

    @Test(arguments: ["smpte2084", "arib-std-b67"])
    func anHDRSourceIsToneMappedToSDRAsTheFFmpegToolMapsIt(transfer: String) throws {
        let scratch = fixtures.scratch()
        let source = scratch.path("hdr.mp4"), output = scratch.path("sdr.mp4")
        try HDRClip.make(source, transfer: transfer)
        try SegmentEncoder.encode(source: source, from: 0, to: nil, encoding: Self.lossless, output: output)
        let psnr = try MediaReference.psnr(output, against: source, referenceFilter: HDRClip.toneMapping(transfer: transfer))
        // What the output was before tone-mapping: the HDR values cut to 8 bits, tags kept.
        let untouched = try MediaReference.psnr(output, against: source, referenceFilter: "format=yuv420p")
        print("\(transfer): \(psnr) dB against ffmpeg's tone-mapping, \(untouched) dB against the untouched values")
        #expect(psnr >= 45, "\(transfer): \(psnr) dB")
        let description = try HDRClip.description(output)
        for tag in ["pix_fmt=yuv420p\n", "color_transfer=bt709", "color_primaries=bt709", "color_space=bt709"] {
            #expect(description.contains(tag), "\(transfer): \(description)")
        }
        #expect(!description.contains("Mastering display"), "\(description)")
    }

    @Test(arguments: ["libx265", "libsvtav1"])
    func keptHDRIsTenBitWithItsTransferPrimariesAndMetadata(codec: String) throws {
        let scratch = fixtures.scratch()
        let source = scratch.path("pq.mp4"), output = scratch.path("kept.mp4")
        try HDRClip.make(source)
        let encoding = VideoEncoding(codec: codec, crf: 30, preset: "ultrafast", hdr: .keep)
        try SegmentEncoder.encode(source: source, from: 0, to: nil, edit: VideoEdit(maxWidth: 160, maxHeight: 160),
                                  encoding: encoding, output: output)
        let description = try HDRClip.description(output)
        // HEVC states the metadata in 1/50000 and 1/10000 units, AV1 in its own fixed point.
        let exact = codec == "libx265"
            ? ["max_luminance=10000000/10000", "min_luminance=50/10000", "red_x=34000/50000"]
            : ["max_luminance=256000/256", "red_x=44564/65536"]
        for tag in ["pix_fmt=yuv420p10le", "color_transfer=smpte2084", "color_primaries=bt2020", "color_space=bt2020nc",
                    "side_data_type=Mastering display metadata", "max_content=1000", "max_average=400"] + exact {
            #expect(description.contains(tag), "\(codec): \(tag) in \(description)")
        }
        let size = try MediaReference.size(output)
        #expect(size.width == 160 && size.height == 120, "\(size)")
    }

    @Test func keepingHDRNeedsHEVCOrAV1AndNoColourEdit() throws {
        let scratch = fixtures.scratch()
        let source = scratch.path("pq.mp4")
        try HDRClip.make(source)
        let h264 = try #require(throws: FFmpegError.self) {
            try SegmentEncoder.encode(source: source, from: 0, to: nil,
                                      encoding: VideoEncoding(codec: "libx264", hdr: .keep), output: scratch.path("a.mp4"))
        }
        #expect(h264.kind == .invalidRequest && h264.message.contains("HEVC"), "\(h264.message)")
        let edited = try #require(throws: FFmpegError.self) {
            try SegmentEncoder.encode(source: source, from: 0, to: nil, edit: VideoEdit(exposure: 0.5),
                                      encoding: VideoEncoding(codec: "libx265", hdr: .keep), output: scratch.path("b.mp4"))
        }
        #expect(edited.kind == .invalidRequest && edited.message.contains("colour edits"), "\(edited.message)")
    }

    @Test func anHDRThumbnailIsToneMapped() throws {
        let scratch = fixtures.scratch()
        let source = scratch.path("pq.mp4"), reference = scratch.path("reference.png")
        try HDRClip.make(source)
        let (data, width, height) = try FrameGrabber.representativeFrame(source, maxDimension: 320)
        try CommandLineTool.ffmpeg(["-i", source, "-frames:v", "1", "-vf",
                                    HDRClip.toneMapping(transfer: "smpte2084") + ",scale=flags=accurate_rnd+full_chroma_int,format=rgb24",
                                    reference])
        let expected = try CommandLineTool.ffmpeg(["-i", reference, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]).output
        #expect(width == 320 && height == 240 && data.count == expected.count)
        let error = zip(data, expected).reduce(0.0) { $0 + abs(Double($1.0) - Double($1.1)) } / Double(max(1, data.count))
        print("HDR thumbnail: \(error) levels from ffmpeg's tone-mapped frame on average")
        #expect(error <= 2, "\(error) levels on average")
    }
}
