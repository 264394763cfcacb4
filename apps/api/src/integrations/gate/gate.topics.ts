// The gate feed's topics (it writes the attraction usage). A key is a barcode.

/** A ticket or card was used at an attraction (a new usage event). */
export const ATTRACTION_VISITED = 'attraction.visited';
