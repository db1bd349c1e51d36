// Behaviour and Chinese texts of the static offline page (offline.html).
(() => {
  let stored = null;
  try {
    stored = localStorage.getItem("language");
  } catch {
    stored = null;
  }
  const lang = stored || navigator.language || "en";
  if (lang.toLowerCase().indexOf("zh") === 0) {
    document.documentElement.lang = "zh-CN";
    document.title = "页面暂时不可用 - ClipShare";
    document.getElementById("title").textContent = "页面暂时不可用";
    document.getElementById("text").textContent = "你似乎处于离线状态，且此页面尚未缓存到本设备。";
    document.getElementById("home").textContent = "返回首页";
    document.getElementById("back").textContent = "返回上一页";
    document.getElementById("retry").textContent = "重试";
  }
  document.getElementById("back").addEventListener("click", () => {
    history.back();
  });
  document.getElementById("retry").addEventListener("click", () => {
    location.reload();
  });
})();
