// exifr's lite build (JPEG, HEIC, TIFF; EXIF, GPS) has the package's types.
declare module "exifr/dist/lite.esm.mjs" {
  import exifr from "exifr";
  export default exifr;
}
