import Foundation

/// HDR clips for tests, made with the `ffmpeg` tool and x265: SMPTE colour bars (the same picture
/// in every frame), 10-bit BT.2020, PQ or HLG, with mastering display and content light level
/// metadata (1000 cd/m² peak, MaxCLL 1000, MaxFALL 400) in the bitstream.
public enum HDRClip {
    /// The tone-mapping operator the product documents, as the `ffmpeg` tool runs it on a source
    /// with `transfer`, BT.2020 primaries and matrix, limited range.
    public static func toneMapping(transfer: String) -> String {
        "zscale=tin=\(transfer):min=bt2020nc:pin=bt2020:rin=tv:t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,"
            + "tonemap=tonemap=hable:desat=0,zscale=t=bt709:m=bt709:r=tv,format=yuv420p"
    }

    /// Writes a 2 s, 320×240, 25 fps clip with `transfer` (`smpte2084` for PQ, `arib-std-b67` for HLG).
    public static func make(_ path: String, transfer: String = "smpte2084") throws {
        try MediaFixtures.ffmpeg([
            "-f", "lavfi", "-i", "smptehdbars=size=320x240:rate=25:duration=2,format=yuv420p10le",
            "-c:v", "libx265", "-preset", "ultrafast", "-pix_fmt", "yuv420p10le",
            "-x265-params", "log-level=error:colorprim=bt2020:transfer=\(transfer):colormatrix=bt2020nc"
                + ":master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,50)"
                + ":max-cll=1000,400",
            "-color_trc", transfer, "-color_primaries", "bt2020", "-colorspace", "bt2020nc", "-color_range", "tv",
            path,
        ])
    }

    /// The first stream's `pix_fmt`, `color_transfer`, `color_primaries` and `color_space` by `ffprobe`,
    /// and the side data of its first frame (`key=value` lines).
    public static func description(_ path: String) throws -> String {
        let stream = try MediaFixtures.tool("/usr/bin/ffprobe", [
            "-v", "error", "-select_streams", "v:0", "-show_entries",
            "stream=pix_fmt,color_transfer,color_primaries,color_space", "-of", "default=nw=1", "-o", "/dev/stderr", path,
        ])
        let frame = try MediaFixtures.tool("/usr/bin/ffprobe", [
            "-v", "error", "-select_streams", "v:0", "-read_intervals", "%+#1", "-show_entries", "frame_side_data_list",
            "-of", "default=nw=1", "-o", "/dev/stderr", path,
        ])
        return stream + frame
    }
}
