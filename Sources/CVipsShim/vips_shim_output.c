// Saving, writing pixels out, stopping an evaluation, and taking libvips' error message.
#include "vips_shim.h"

int shim_save_file(VipsImage *in, ShimFormat format, const char *filename, int quality) {
    switch (format) {
    case SHIM_FORMAT_JPEG:
        return vips_jpegsave(in, filename, "Q", quality, "strip", FALSE, NULL);
    case SHIM_FORMAT_WEBP:
        return vips_webpsave(in, filename, "Q", quality, "strip", FALSE, NULL);
    case SHIM_FORMAT_AVIF:
        return vips_heifsave(in, filename, "Q", quality, "strip", FALSE, "bitdepth", 8,
            "compression", VIPS_FOREIGN_HEIF_COMPRESSION_AV1, NULL);
    case SHIM_FORMAT_PNG:
        return vips_pngsave(in, filename, "compression", 6, "strip", FALSE, NULL);
    }
    vips_error("shim_save_file", "%s", "unknown format");
    return -1;
}

int shim_save_buffer(VipsImage *in, ShimFormat format, void **buffer, size_t *length, int quality) {
    switch (format) {
    case SHIM_FORMAT_JPEG:
        return vips_jpegsave_buffer(in, buffer, length, "Q", quality, "strip", FALSE, NULL);
    case SHIM_FORMAT_WEBP:
        return vips_webpsave_buffer(in, buffer, length, "Q", quality, "strip", FALSE, NULL);
    case SHIM_FORMAT_AVIF:
        return vips_heifsave_buffer(in, buffer, length, "Q", quality, "strip", FALSE, "bitdepth", 8,
            "compression", VIPS_FOREIGN_HEIF_COMPRESSION_AV1, NULL);
    case SHIM_FORMAT_PNG:
        return vips_pngsave_buffer(in, buffer, length, "compression", 6, "strip", FALSE, NULL);
    }
    vips_error("shim_save_buffer", "%s", "unknown format");
    return -1;
}

void *shim_write_to_memory(VipsImage *in, size_t *length) {
    return vips_image_write_to_memory(in, length);
}

struct ShimStopWatch {
    VipsImage *image;
    shim_should_stop_fn should_stop;
    void *context;
    gulong preeval_id;
    gulong eval_id;
    gint stop_requested;
};

static void shim_stop_watch_ask(VipsImage *image, VipsProgress *progress, void *user) {
    (void) progress;
    ShimStopWatch *watch = user;
    if (g_atomic_int_get(&watch->stop_requested) || watch->should_stop(watch->context)) {
        g_atomic_int_set(&watch->stop_requested, 1);
        vips_image_set_kill(image, TRUE);
    }
}

VipsImage *shim_private_view(VipsImage *in) {
    // vips_image_write into a new partial image links it to `in` without copying pixels, and,
    // unlike vips_copy, never returns an image shared through the operation cache.
    VipsImage *view = vips_image_new();
    if (vips_image_write(in, view)) {
        g_object_unref(view);
        return NULL;
    }
    return view;
}

ShimStopWatch *shim_stop_watch_attach(VipsImage *image, shim_should_stop_fn should_stop, void *context) {
    ShimStopWatch *watch = g_new0(ShimStopWatch, 1);
    watch->image = image;
    watch->should_stop = should_stop;
    watch->context = context;
    g_object_ref(image);
    // Progress must be on before a saver builds its pipeline: images made from `image` then
    // signal on it, and a killed `image` fails the next region its pixels are asked for.
    vips_image_set_progress(image, TRUE);
    watch->preeval_id = g_signal_connect(image, "preeval", G_CALLBACK(shim_stop_watch_ask), watch);
    watch->eval_id = g_signal_connect(image, "eval", G_CALLBACK(shim_stop_watch_ask), watch);
    return watch;
}

int shim_stop_watch_detach(ShimStopWatch *watch) {
    g_signal_handler_disconnect(watch->image, watch->preeval_id);
    g_signal_handler_disconnect(watch->image, watch->eval_id);
    vips_image_set_progress(watch->image, FALSE);
    vips_image_set_kill(watch->image, FALSE);
    g_object_unref(watch->image);
    int requested = g_atomic_int_get(&watch->stop_requested);
    g_free(watch);
    return requested;
}

char *shim_error_take(void) {
    // The copy and the clear happen under libvips' error lock, so a message from another thread
    // cannot slip in between.
    return vips_error_buffer_copy();
}
