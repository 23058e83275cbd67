import CFFmpegShim

/// What a person picks a track by, carried from a source stream to an output stream: its
/// language, its name and its disposition (default, commentary, dub, …).
///
/// MP4 keeps a track's name only as its handler name, so a source's `title` (as Matroska and
/// `ffmpeg -metadata:s:a:N title=…` give it) is written as `handler_name` too; a source without
/// a title keeps its handler name.
enum StreamLabels {
    /// Copies the labels of `source` onto `target`, before the output's header is written.
    static func copy(from source: UnsafePointer<AVStream>, to target: UnsafeMutablePointer<AVStream>,
                     path: String) throws(FFmpegError) {
        let language = value("language", of: source)
        let name = value("title", of: source) ?? value("handler_name", of: source)
        for (key, text) in [("language", language), ("title", name), ("handler_name", name)] {
            guard let text else { continue }
            try check(av_dict_set(&target.pointee.metadata, key, text, 0), "av_dict_set", path: path,
                      kind: .writeFailed)
        }
        target.pointee.disposition = source.pointee.disposition & ~AV_DISPOSITION_ATTACHED_PIC
    }

    /// The stream's metadata entry `key`, if present and not empty.
    private static func value(_ key: String, of stream: UnsafePointer<AVStream>) -> String? {
        guard let entry = av_dict_get(stream.pointee.metadata, key, nil, 0), let text = entry.pointee.value else {
            return nil
        }
        let value = String(cString: text)
        return value.isEmpty ? nil : value
    }
}
