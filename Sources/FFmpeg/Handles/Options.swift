import CFFmpegShim

/// An owned `AVDictionary` of options for an FFmpeg call, freed with `av_dict_free`.
///
/// FFmpeg removes the options it used; ``unused`` names the rest, so a misspelt or unsupported
/// option is an error rather than silently ignored.
final class Options {
    /// The dictionary; FFmpeg may replace it during a call.
    var pointer: OpaquePointer?
    private let path: String

    /// Builds the dictionary from `pairs`, in order.
    init(_ pairs: KeyValuePairs<String, String> = [:], path: String) throws(FFmpegError) {
        self.path = path
        for (key, value) in pairs { try set(key, value) }
    }

    deinit { av_dict_free(&pointer) }

    /// Sets `key` to `value`.
    func set(_ key: String, _ value: String) throws(FFmpegError) {
        try check(av_dict_set(&pointer, key, value, 0), "av_dict_set \(key)", path: path, kind: .encodeFailed)
    }

    /// The keys FFmpeg left unused after a call.
    var unused: [String] {
        var keys: [String] = []
        var entry: UnsafeMutablePointer<AVDictionaryEntry>?
        while let next = av_dict_get(pointer, "", entry, AV_DICT_IGNORE_SUFFIX) {
            keys.append(String(cString: next.pointee.key))
            entry = next
        }
        return keys
    }
}
