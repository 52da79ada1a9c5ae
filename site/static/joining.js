// A join link (#live=...) opened on a game's own page goes to the game's guest page (issue
// 37: a guest device runs no engine; links made before it name the game's page). Why a
// classic script of its own, first in the head: it runs before anything of the engine is
// asked for (the head's preloads come after it), so the replaced page fetches nothing more.
if (/^#live=/.test(location.hash)) location.replace(new URL("guest/" + location.hash, location.href).href);
