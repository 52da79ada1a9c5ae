// A join link (#live=...) shows "Joining <game> ..." from the first frame, never the set-up
// form (issue 36). Why a classic script of its own: it runs in the head, before the body is
// parsed and painted, where a module script (frame.js) runs only after parsing. The page's
// Python takes the class off once the guest is at the table (site/py/live_browser.py).
if (/^#live=/.test(location.hash)) document.documentElement.classList.add("is-joining");
