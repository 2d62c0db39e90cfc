#include "cimageio.h"
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cimageio_read_png(const char *path, int keep16, cimageio_image *out) {
    memset(out, 0, sizeof *out);
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&image, path)) {
        snprintf(out->error, sizeof out->error, "%s", image.message);
        png_image_free(&image);
        return 1;
    }
    if (image.width == 0 || image.height == 0 ||
        (unsigned long long)image.width * image.height > CIMAGEIO_MAX_PIXELS) {
        snprintf(out->error, sizeof out->error, "image size %ux%u is too large", image.width, image.height);
        png_image_free(&image);
        return 1;
    }
    // 16-bit files keep their precision as linear light; everything else (grey, palette, 8-bit) becomes 8-bit sRGB RGBA.
    int sixteen = keep16 && (image.format & PNG_FORMAT_FLAG_LINEAR);
    image.format = sixteen ? PNG_FORMAT_LINEAR_RGB_ALPHA : PNG_FORMAT_RGBA;
    size_t size = PNG_IMAGE_SIZE(image);
    void *buffer = malloc(size);
    if (!buffer) {
        snprintf(out->error, sizeof out->error, "out of memory for %ux%u pixels", image.width, image.height);
        png_image_free(&image);
        return 1;
    }
    if (!png_image_finish_read(&image, NULL, buffer, 0, NULL)) {
        snprintf(out->error, sizeof out->error, "%s", image.message);
        free(buffer);
        png_image_free(&image);
        return 1;
    }
    out->width = (int)image.width;
    out->height = (int)image.height;
    out->is16bit = sixteen;
    out->pixels = buffer;
    png_image_free(&image);
    return 0;
}

int cimageio_write_png(const char *path, const void *rgba, int width, int height, int is16bit, char error[256]) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = (png_uint_32)width;
    image.height = (png_uint_32)height;
    image.format = is16bit ? PNG_FORMAT_LINEAR_RGB_ALPHA : PNG_FORMAT_RGBA;
    if (!png_image_write_to_file(&image, path, 0, rgba, 0, NULL)) {
        snprintf(error, 256, "%s", image.message);
        png_image_free(&image);
        return 1;
    }
    png_image_free(&image);
    return 0;
}

void cimageio_free(cimageio_image *image) {
    free(image->pixels);
    image->pixels = NULL;
}
