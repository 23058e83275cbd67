import CFFmpegShim

/// FFmpeg's metadata dictionaries (`AVDictionary`) as Swift dictionaries and back.
enum Metadata {
    /// Every entry of `dictionary`.
    static func entries(_ dictionary: OpaquePointer?) -> [String: String] {
        var entries: [String: String] = [:]
        var entry: UnsafeMutablePointer<AVDictionaryEntry>?
        while let next = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
            if let key = next.pointee.key, let value = next.pointee.value {
                entries[String(cString: key)] = String(cString: value)
            }
            entry = next
        }
        return entries
    }

    /// Sets `entries` in `dictionary`, in key order.
    static func set(_ entries: [String: String], in dictionary: inout OpaquePointer?, path: String) throws(FFmpegError) {
        for (key, value) in entries.sorted(by: { $0.key < $1.key }) {
            try check(av_dict_set(&dictionary, key, value, 0), "av_dict_set", path: path, kind: .writeFailed)
        }
    }
}
