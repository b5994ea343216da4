"""Account pages: sign-in, sign-up, sign-out (allauth's views), My Profile, All Users."""

from allauth.account import views as allauth_views
from django.shortcuts import render

from shop.decorators import login_required, shop_admin_required

login = allauth_views.LoginView.as_view(template_name="account/login.html")
signup = allauth_views.SignupView.as_view(template_name="account/signup.html")
logout = allauth_views.LogoutView.as_view()


@login_required
def profile(request):
    return render(request, "dashboard/profile.html")


@shop_admin_required
def users(request):
    return render(request, "dashboard/users.html")
