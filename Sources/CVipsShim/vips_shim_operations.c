// One fixed-arity function per libvips operation the Vips module uses.
#include "vips_shim.h"

int shim_autorot(VipsImage *in, VipsImage **out) {
    return vips_autorot(in, out, NULL);
}

int shim_copy_memory(VipsImage *in, VipsImage **out) {
    *out = vips_image_copy_memory(in);
    return *out ? 0 : -1;
}

int shim_crop(VipsImage *in, VipsImage **out, int left, int top, int width, int height) {
    return vips_crop(in, out, left, top, width, height, NULL);
}

int shim_rotate(VipsImage *in, VipsImage **out, int quarter_turns) {
    static const VipsAngle angles[] = {VIPS_ANGLE_D0, VIPS_ANGLE_D90, VIPS_ANGLE_D180, VIPS_ANGLE_D270};
    if (quarter_turns < 1 || quarter_turns > 3) {
        vips_error("shim_rotate", "%s", "quarter turns must be 1, 2 or 3");
        return -1;
    }
    return vips_rot(in, out, angles[quarter_turns], NULL);
}

int shim_resize_lanczos3(VipsImage *in, VipsImage **out, double hscale, double vscale) {
    return vips_resize(in, out, hscale, "vscale", vscale, "kernel", VIPS_KERNEL_LANCZOS3, NULL);
}

int shim_premultiply(VipsImage *in, VipsImage **out) {
    return vips_premultiply(in, out, NULL);
}

int shim_unpremultiply(VipsImage *in, VipsImage **out) {
    return vips_unpremultiply(in, out, NULL);
}

int shim_cast(VipsImage *in, VipsImage **out, int format) {
    return vips_cast(in, out, (VipsBandFormat) format, NULL);
}

int shim_rint(VipsImage *in, VipsImage **out) {
    return vips_rint(in, out, NULL);
}

int shim_extract_bands(VipsImage *in, VipsImage **out, int first, int count) {
    return vips_extract_band(in, out, first, "n", count, NULL);
}

int shim_bandjoin2(VipsImage *left, VipsImage *right, VipsImage **out) {
    return vips_bandjoin2(left, right, out, NULL);
}

int shim_linear1(VipsImage *in, VipsImage **out, double a, double b) {
    return vips_linear1(in, out, a, b, NULL);
}

int shim_recombine(VipsImage *in, VipsImage **out, const double *matrix, int rows, int columns) {
    VipsImage *m = vips_image_new_matrix_from_array(columns, rows, matrix, rows * columns);
    if (!m)
        return -1;
    int result = vips_recomb(in, out, m, NULL);
    g_object_unref(m);
    return result;
}

int shim_flatten(VipsImage *in, VipsImage **out, const double *background, int count) {
    VipsArrayDouble *colour = vips_array_double_new(background, count);
    int result = vips_flatten(in, out, "background", colour, NULL);
    vips_area_unref(VIPS_AREA(colour));
    return result;
}

int shim_colourspace_srgb(VipsImage *in, VipsImage **out) {
    return vips_colourspace(in, out, VIPS_INTERPRETATION_sRGB, NULL);
}

int shim_arrayjoin(VipsImage **in, int n, VipsImage **out, int across, int spacing,
                   const double *background, int count) {
    VipsArrayDouble *colour = vips_array_double_new(background, count);
    int result = vips_arrayjoin(in, out, n,
        "across", across,
        "shim", spacing,
        "background", colour,
        NULL);
    vips_area_unref(VIPS_AREA(colour));
    return result;
}

int shim_subtract(VipsImage *left, VipsImage *right, VipsImage **out) {
    return vips_subtract(left, right, out, NULL);
}

int shim_multiply(VipsImage *left, VipsImage *right, VipsImage **out) {
    return vips_multiply(left, right, out, NULL);
}

int shim_avg(VipsImage *in, double *out) {
    return vips_avg(in, out, NULL);
}
