"""The rules of Tsushima 1905, one module per part of the rulebook."""
