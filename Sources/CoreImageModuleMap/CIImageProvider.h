// Intentionally empty: the declarations of `import CoreImage.CIImageProvider` are Swift declarations of the CoreImage module.
