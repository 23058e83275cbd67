/// `path` as an FFmpeg URL for the `file` protocol. FFmpeg reads `name:rest` as protocol `name`;
/// a relative path with a colon gets the `file:` prefix so it stays a local file (which the
/// protocol whitelist would otherwise refuse).
func fileURL(_ path: String) -> String {
    path.hasPrefix("/") || !path.contains(":") ? path : "file:" + path
}
