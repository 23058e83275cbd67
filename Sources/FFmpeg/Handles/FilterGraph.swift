import CFFmpegShim

/// An owned libavfilter graph with one video input and one video output, built from a filter
/// description as `ffmpeg -vf` takes it and run on one thread; freed with `avfilter_graph_free`.
final class FilterGraph {
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private let source: UnsafeMutablePointer<AVFilterContext>
    private let sink: UnsafeMutablePointer<AVFilterContext>
    private let path: String

    /// Builds `description` for pictures of `width` × `height` in `format`, timed in `timeBase`.
    /// - Throws: ``FFmpegError``: `encoderUnavailable` when this libavfilter lacks a filter of
    ///   the description or cannot connect them.
    init(_ description: String, width: Int32, height: Int32, format: AVPixelFormat, timeBase: AVRational,
         path: String) throws(FFmpegError) {
        guard let graph = avfilter_graph_alloc() else { fatalError("avfilter_graph_alloc: out of memory") }
        graph.pointee.nb_threads = 1
        self.path = path
        do {
            let arguments = "video_size=\(width)x\(height):pix_fmt=\(format.rawValue)"
                + ":time_base=\(timeBase.num)/\(max(timeBase.den, 1)):pixel_aspect=1/1"
            var source: UnsafeMutablePointer<AVFilterContext>?, sink: UnsafeMutablePointer<AVFilterContext>?
            try check(avfilter_graph_create_filter(&source, avfilter_get_by_name("buffer"), "in", arguments, nil, graph),
                      "avfilter_graph_create_filter buffer", path: path, kind: .encoderUnavailable)
            try check(avfilter_graph_create_filter(&sink, avfilter_get_by_name("buffersink"), "out", nil, nil, graph),
                      "avfilter_graph_create_filter buffersink", path: path, kind: .encoderUnavailable)
            try Self.connect(description, from: source!, to: sink!, in: graph, path: path)
            try check(avfilter_graph_config(graph, nil), "avfilter_graph_config", path: path, kind: .encoderUnavailable)
            self.source = source!
            self.sink = sink!
        } catch {
            var owned: UnsafeMutablePointer<AVFilterGraph>? = graph
            avfilter_graph_free(&owned)
            throw error
        }
        self.graph = graph
    }

    deinit { avfilter_graph_free(&graph) }

    /// Parses `description` between the graph's input `source` and output `sink`.
    private static func connect(_ description: String, from source: UnsafeMutablePointer<AVFilterContext>,
                                to sink: UnsafeMutablePointer<AVFilterContext>, in graph: UnsafeMutablePointer<AVFilterGraph>,
                                path: String) throws(FFmpegError) {
        var outputs = avfilter_inout_alloc(), inputs = avfilter_inout_alloc()
        defer {
            avfilter_inout_free(&outputs)
            avfilter_inout_free(&inputs)
        }
        guard let output = outputs, let input = inputs else { fatalError("avfilter_inout_alloc: out of memory") }
        output.pointee.name = av_strdup("in")
        output.pointee.filter_ctx = source
        input.pointee.name = av_strdup("out")
        input.pointee.filter_ctx = sink
        // The parser takes what it links and leaves the rest in the lists, freed above.
        let code = avfilter_graph_parse_ptr(graph, description, &inputs, &outputs, nil)
        try check(code, "avfilter_graph_parse_ptr", path: path, kind: .encoderUnavailable)
    }

    /// Filters `frame` (left as it is) and puts the picture that comes out into `output`.
    /// - Returns: `false` when the graph holds the picture back for now.
    func filter(_ frame: Frame, into output: Frame) throws(FFmpegError) -> Bool {
        try check(av_buffersrc_add_frame_flags(source, frame.pointer, Int32(AV_BUFFERSRC_FLAG_KEEP_REF)),
                  "av_buffersrc_add_frame_flags", path: path, kind: .encodeFailed)
        output.unref()
        let code = av_buffersink_get_frame(sink, output.pointer)
        if code == shim_AVERROR_EAGAIN() { return false }
        try check(code, "av_buffersink_get_frame", path: path, kind: .encodeFailed)
        return true
    }
}
