// Intentionally empty: the declarations of `import CoreImage.CIFilterShape` are Swift declarations of the CoreImage module.
