// Intentionally empty: the declarations of `import CoreImage.CIPlugIn` are Swift declarations of the CoreImage module.
