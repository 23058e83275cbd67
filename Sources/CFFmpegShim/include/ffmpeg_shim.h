#ifndef MEDIAJOB_FFMPEG_SHIM_H
#define MEDIAJOB_FFMPEG_SHIM_H

// Hand-written C for the FFmpeg bridge: the macros Swift cannot import, the log capture and
// the per-pixel loops that are too slow in an unoptimised Swift build.

#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/mastering_display_metadata.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/sha.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>

// MARK: - Error codes (macros in libavutil/error.h)

/// AVERROR(e): the negative FFmpeg code for a POSIX errno.
static inline int shim_AVERROR(int posix) { return AVERROR(posix); }
/// AVUNERROR(e): the POSIX errno of an FFmpeg code built with AVERROR.
static inline int shim_AVUNERROR(int code) { return AVUNERROR(code); }
static inline int shim_AVERROR_EOF(void) { return AVERROR_EOF; }
static inline int shim_AVERROR_EAGAIN(void) { return AVERROR(EAGAIN); }
static inline int shim_AVERROR_EXIT(void) { return AVERROR_EXIT; }
static inline int shim_AVERROR_INVALIDDATA(void) { return AVERROR_INVALIDDATA; }
static inline int shim_AVERROR_DECODER_NOT_FOUND(void) { return AVERROR_DECODER_NOT_FOUND; }
static inline int shim_AVERROR_DEMUXER_NOT_FOUND(void) { return AVERROR_DEMUXER_NOT_FOUND; }
static inline int shim_AVERROR_ENCODER_NOT_FOUND(void) { return AVERROR_ENCODER_NOT_FOUND; }
static inline int shim_AVERROR_STREAM_NOT_FOUND(void) { return AVERROR_STREAM_NOT_FOUND; }
static inline int shim_AVERROR_OPTION_NOT_FOUND(void) { return AVERROR_OPTION_NOT_FOUND; }
static inline int shim_AVERROR_PATCHWELCOME(void) { return AVERROR_PATCHWELCOME; }

/// AV_NOPTS_VALUE: "no timestamp".
static inline int64_t shim_AV_NOPTS_VALUE(void) { return AV_NOPTS_VALUE; }
/// AV_TIME_BASE_Q: microseconds, the time base of AVFormatContext durations.
static inline AVRational shim_AV_TIME_BASE_Q(void) { return AV_TIME_BASE_Q; }

/// av_strerror into `buffer`, with a fallback text when FFmpeg has none for the code.
void shim_strerror(int code, char *buffer, size_t size);

// MARK: - Log capture

/// Routes FFmpeg's log through a callback that prints nothing (unless the environment variable
/// MEDIAJOB_FFMPEG_LOG is set) and keeps the last message at `level` or more severe per thread.
void shim_install_log_capture(int level);
/// Copies the calling thread's last captured message into `buffer` and forgets it.
/// Returns its length (0 when there is none).
size_t shim_take_last_log(char *buffer, size_t size);

// MARK: - Process

/// Gives the memory malloc holds free, in every arena, back to the system (`malloc_trim(0)`).
void shim_release_freed_memory(void);

// MARK: - Streams and options

/// The clockwise rotation in degrees (0, 90, 180 or 270) that shows the stream upright,
/// from its display matrix; 0 when it has none.
int shim_stream_rotation(const AVStream *stream);
/// Installs the interrupt callback on a format context, before it opens anything.
void shim_set_interrupt(AVFormatContext *context, int (*callback)(void *), void *opaque);
/// AVIO_FLAG_WRITE, for avio_open2.
static inline int shim_AVIO_FLAG_WRITE(void) { return AVIO_FLAG_WRITE; }

// MARK: - Pixels

/// Rotates one plane of `width` x `height` pixels of `bytes_per_pixel` bytes clockwise by
/// `quarter_turns` (1, 2 or 3) into `destination` (height x width for odd turns).
void shim_rotate_plane(const uint8_t *source, int source_stride, int width, int height,
                       int bytes_per_pixel, uint8_t *destination, int destination_stride,
                       int quarter_turns);

/// Applies the colour edit to packed RGB24 in place, in this order, each step clamped to
/// 0...255 in floating point and the result rounded half up: exposure (RGB times 2^exposure),
/// contrast c (v -> (v - 128) * c + 128), saturation s (v -> Y + (v - Y) * s with Rec.601
/// luma Y = 0.299 R + 0.587 G + 0.114 B).
void shim_adjust_rgb24(uint8_t *pixels, int stride, int width, int height,
                       double exposure, double contrast, double saturation);

/// The variance of Rec.601 luma over packed RGB24 pixels.
double shim_luma_variance_rgb24(const uint8_t *pixels, int stride, int width, int height);

#endif
